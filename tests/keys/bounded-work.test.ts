import net from 'node:net';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getInvoiceEndpoint } from '@/lib/api/endpoints/invoices';
import { authorizeQuery } from '@/lib/keys/authorize';
import { hashSecret } from '@/lib/keys/api-key-secret';
import { monthPeriod } from '@/lib/usage/period';
import { monthlyCount, seedAccount, VALID_INVOICE } from '../support/fixtures';
import { baseUrl, call, expectProblem } from '../support/http';

/** Bounded work per request (docs/api.md, Keys). */
let admin: pg.Client;
beforeAll(async () => {
  admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await admin.connect();
});
afterAll(async () => admin?.end());

/**
 * The statement GET /v1/invoices/{id} sends, run under EXPLAIN ANALYZE: the plan shows for each node how many
 * times it ran. A refused request must show the invoices scan as "never executed".
 */
async function invoiceScanLoops(secret: string, invoiceId: string): Promise<string[]> {
  const endpoint = getInvoiceEndpoint;
  if (!endpoint.read) throw new Error('GET /v1/invoices/{id} has no read');
  const now = new Date();
  const read = endpoint.read({ params: { id: invoiceId }, query: {}, now });
  const { text, values } = authorizeQuery({
    hash: hashSecret(secret),
    exemptFromMonthlyLimit: false,
    clientIp: '127.0.0.1',
    scope: 'invoices:read',
    now,
    read,
  });
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  try {
    // Inside a transaction that is rolled back: the statement meters, and this measurement must not count.
    await client.query('BEGIN');
    const { rows } = await client.query(`EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) ${text}`, values);
    await client.query('ROLLBACK');
    const plan = rows.map((r) => String(r['QUERY PLAN']));
    return plan.filter((line) => /on invoices\b|invoices_pkey/.test(line));
  } finally {
    await client.end();
  }
}

describe('a refused request runs no endpoint read', () => {
  it('GET /v1/invoices/{id}: the invoice scan runs when allowed, never at the monthly or the rate limit', async () => {
    const account = await seedAccount({ plan: 'Developer' });
    const created = await call('POST', '/v1/invoices', { key: account.secret, body: VALID_INVOICE });
    const id = created.json.id as string;

    const allowed = await invoiceScanLoops(account.secret, id);
    expect(allowed.length).toBeGreaterThan(0);
    expect(allowed.some((line) => /loops=1\)/.test(line))).toBe(true);

    // The rate limit: the key's bucket empty.
    await admin.query(
      `INSERT INTO rate_buckets (scope, tokens, refilled_at) VALUES ($1, 0, now() + interval '1 hour')
                       ON CONFLICT (scope) DO UPDATE SET tokens = 0, refilled_at = EXCLUDED.refilled_at`,
      [`key:${account.key.id}`],
    );
    const rateLimited = await invoiceScanLoops(account.secret, id);
    expect(rateLimited.length).toBeGreaterThan(0);
    expect(rateLimited.every((line) => line.includes('never executed'))).toBe(true);
    expectProblem(await call('GET', `/v1/invoices/${id}`, { key: account.secret }), 429, 'rate_limited');

    // The monthly allowance used up.
    await admin.query(`DELETE FROM rate_buckets WHERE scope = $1`, [`key:${account.key.id}`]);
    await admin.query(
      `INSERT INTO usage_monthly (workspace_id, period, count) VALUES ($1, $2, 10000) ON CONFLICT (workspace_id, period) DO UPDATE SET count = 10000`,
      [account.workspace.id, monthPeriod(new Date())],
    );
    const monthly = await invoiceScanLoops(account.secret, id);
    expect(monthly.every((line) => line.includes('never executed'))).toBe(true);
    expectProblem(await call('GET', `/v1/invoices/${id}`, { key: account.secret }), 429, 'monthly_limit_exceeded');
  });
});

describe('validation output is bounded', () => {
  it('a body with hundreds of unknown fields: at most 20 errors, short messages, a small answer', async () => {
    const account = await seedAccount({ plan: 'Developer' });
    const body: Record<string, string> = { ...VALID_INVOICE };
    for (let i = 0; i < 800; i++) body[`field_${'x'.repeat(40)}_${i}`] = 'y'.repeat(20);
    const result = await call('POST', '/v1/invoices', { key: account.secret, body });
    const problem = expectProblem(result, 400, 'validation_failed');
    expect(problem.errors).toHaveLength(20);
    expect(problem.detail).toMatch(/\(and 799 more\)$/);
    for (const error of problem.errors ?? []) expect(error.path.length + error.message.length).toBeLessThanOrEqual(400);
    expect(result.text.length).toBeLessThan(8 * 1024);
  });
});

describe('a slow request body', () => {
  it('gets 408 request_timeout within the limit and is not counted', async () => {
    const account = await seedAccount({ plan: 'Developer' });
    const url = new URL(baseUrl());
    const started = Date.now();
    const response = await new Promise<string>((resolve, reject) => {
      const socket = net.connect(Number(url.port), url.hostname, () => {
        socket.write(
          `POST /v1/invoices HTTP/1.1\r\nHost: ${url.host}\r\nX-API-Key: ${account.secret}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"amount":`,
        );
        // …and nothing more: the rest of the body never comes.
      });
      let data = '';
      socket.on('data', (chunk) => {
        data += chunk.toString();
        if (data.includes('\r\n\r\n') && data.includes('}')) socket.end();
      });
      socket.on('end', () => resolve(data));
      socket.on('close', () => resolve(data));
      socket.on('error', reject);
      setTimeout(() => {
        socket.destroy();
        resolve(data);
      }, 30_000);
    });
    expect(response).toMatch(/^HTTP\/1\.1 408/);
    expect(response).toContain('"code":"request_timeout"');
    expect(Date.now() - started).toBeLessThan(25_000);
    expect(await monthlyCount(account.workspace.id)).toBe(0);
  }, 40_000);
});
