import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAdditionalApp, type AppInstance } from '../setup/app';
import { seedAccount, VALID_INVOICE } from '../support/fixtures';
import { call, type CallResult } from '../support/http';

/**
 * Failures of the parts under the API, made real (no mocks): the database schema broken under a running
 * instance, and its connections killed mid-request. Each gives a problem with nothing leaked, and the
 * instance recovers. These run against an instance of their own so no other test sees the breakage.
 *
 * A "thrown bug" (a non-database exception in our own code) has no trigger without a test-only hook in
 * production code, and we add none; the fuzz run (tests/contract/fuzz.test.ts) looks for one instead. The two
 * real 500s it found (NUL characters reaching PostgreSQL, malformed percent-encoding reaching Next's router)
 * are fixed and pinned in hostile-inputs.test.ts.
 */
function expectNoLeak(result: CallResult, secret: string) {
  expect(result.text).not.toMatch(/\bat [\w.<>]+ \(|\.ts:\d+|\.js:\d+|node_modules/);
  expect(result.text).not.toMatch(/SELECT|INSERT|UPDATE|invoices|currency_broken|column|relation/i);
  expect(result.text).not.toContain(secret);
  expect(result.text).not.toContain(secret.slice(5, 20));
}

describe('failure paths', () => {
  let instance: AppInstance;
  let admin: pg.Client;

  beforeAll(async () => {
    instance = await startAdditionalApp();
    admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await admin.connect();
  });
  afterAll(async () => {
    await admin?.end();
    await instance?.stop();
  });

  it('a database error (broken schema) → 500 internal_error without stack, SQL or secret; then it recovers', async () => {
    const account = await seedAccount();
    const created = await call('POST', '/v1/invoices', {
      key: account.secret,
      body: VALID_INVOICE,
      base: instance.baseUrl,
    });
    expect(created.status).toBe(201);
    const id = created.json.id as string;

    const failedRequestIds: string[] = [];
    await admin.query('ALTER TABLE invoices RENAME COLUMN currency TO currency_broken');
    try {
      // GET by id reads inside the authentication statement, so that whole statement fails (nothing was
      // counted, no RateLimit headers); the Prisma write (transition) fails after authentication.
      for (const [method, path, authenticated] of [
        ['GET', `/v1/invoices/${id}`, false],
        ['POST', `/v1/invoices/${id}/cancel`, true],
      ] as const) {
        const result = await call(method, path, { key: account.secret, base: instance.baseUrl });
        expect(result.status, result.text).toBe(500);
        expect(result.headers.get('content-type')).toMatch(/^application\/problem\+json/);
        expect(result.json).toMatchObject({
          status: 500,
          code: 'internal_error',
          request_id: result.headers.get('request-id'),
        });
        // When the key was authenticated and counted before the failure, its RateLimit headers stay on the 500.
        if (authenticated)
          expect(result.headers.get('ratelimit')).toMatch(
            /^"per-second";r=\d+;t=\d+, "workspace";r=\d+;t=\d+, "monthly";r=\d+;t=\d+$/,
          );
        else expect(result.headers.get('ratelimit')).toBeNull();
        expectNoLeak(result, account.secret);
        if (authenticated) failedRequestIds.push(result.headers.get('request-id') ?? '');
      }
    } finally {
      await admin.query('ALTER TABLE invoices RENAME COLUMN currency_broken TO currency');
    }
    const after = await call('GET', `/v1/invoices/${id}`, { key: account.secret, base: instance.baseUrl });
    expect(after.status).toBe(200);
    expect(after.json.status).toBe('pending');

    // The request log has the 500 (written in batches: wait for it, bounded), with nothing secret in it.
    let logged: Record<string, unknown>[] = [];
    for (let attempt = 0; attempt < 100 && logged.length === 0; attempt++) {
      logged = (await admin.query(`SELECT * FROM request_log WHERE request_id = ANY($1::text[])`, [failedRequestIds]))
        .rows;
      if (logged.length === 0) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(logged.map((row) => [row.method, row.status])).toEqual([['POST', 500]]);
    expect(JSON.stringify(logged)).not.toContain(account.secret);
  });

  it('a 500 is never stored under an Idempotency-Key: the claim is released and the retry creates the invoice', async () => {
    const account = await seedAccount();
    const send = () =>
      call('POST', '/v1/invoices', {
        key: account.secret,
        body: VALID_INVOICE,
        headers: { 'Idempotency-Key': 'retry-after-500' },
        base: instance.baseUrl,
      });
    await admin.query('ALTER TABLE invoices RENAME COLUMN currency TO currency_broken');
    let failed: CallResult;
    try {
      failed = await send();
    } finally {
      await admin.query('ALTER TABLE invoices RENAME COLUMN currency_broken TO currency');
    }
    expect(failed.status, failed.text).toBe(500);
    expectNoLeak(failed, account.secret);
    const { rows } = await admin.query('SELECT count(*)::int AS n FROM idempotency_records WHERE workspace_id = $1', [
      account.workspace.id,
    ]);
    expect(rows[0].n).toBe(0);

    const retried = await send();
    expect(retried.status, retried.text).toBe(201);
    expect(retried.headers.get('idempotent-replayed')).toBeNull();
    const again = await send();
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.json.id).toBe(retried.json.id);
  });

  it('a database connection lost mid-request → 503 service_unavailable without leaks; the next request succeeds', async () => {
    const account = await seedAccount();
    const id = (
      await call('POST', '/v1/invoices', { key: account.secret, body: VALID_INVOICE, base: instance.baseUrl })
    ).json.id as string;

    // Hold a lock so the request is in flight inside PostgreSQL, then kill every other connection to the database.
    await admin.query('BEGIN');
    await admin.query('LOCK TABLE invoices IN ACCESS EXCLUSIVE MODE');
    const inFlight = call('GET', `/v1/invoices/${id}`, { key: account.secret, base: instance.baseUrl });
    await new Promise((resolve) => setTimeout(resolve, 300));
    // Only the instance's own connections: the lane's server shares this database with the next test file.
    const { rows: killed } = await admin.query(
      'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND application_name = $1',
      [instance.applicationName],
    );
    expect(killed.length, 'connections of the instance').toBeGreaterThan(0);
    await admin.query('ROLLBACK');

    const result = await inFlight;
    expect(result.status, result.text).toBe(503);
    expect(result.json).toMatchObject({ code: 'service_unavailable', status: 503 });
    expect(result.headers.get('retry-after')).toBe('1');
    expectNoLeak(result, account.secret);

    // The pools drop the dead connections and open new ones.
    let recovered: CallResult | undefined;
    for (let attempt = 0; attempt < 10; attempt++) {
      recovered = await call('GET', `/v1/invoices/${id}`, { key: account.secret, base: instance.baseUrl });
      if (recovered.status === 200) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(recovered?.status).toBe(200);
    const health = await fetch(`${instance.baseUrl}/api/health`);
    expect(health.status).toBe(200);
  });
});
