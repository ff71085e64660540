import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { revokeApiKey } from '@/lib/keys/keys';
import { pruneRequestLog } from '@/lib/request-log/writer';
import { seedAccount, VALID_INVOICE } from '../support/fixtures';
import { call } from '../support/http';

/** The request log is written by the server in batches: poll the table (bounded) until the rows are there. */
let admin: pg.Client;
beforeAll(async () => {
  admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await admin.connect();
});
afterAll(async () => admin?.end());

async function logged(requestIds: string[]): Promise<Record<string, unknown>[]> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const { rows } = await admin.query(`SELECT * FROM request_log WHERE request_id = ANY($1::text[]) ORDER BY id`, [
      requestIds,
    ]);
    if (rows.length >= requestIds.length) return rows;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`request log rows for ${requestIds.join(', ')} did not appear within 10 s`);
}

describe('request log', () => {
  it('records 2xx and 4xx requests (refusals too) with time, key, method, path, status, duration, request id and idempotency key — nothing secret', async () => {
    const account = await seedAccount({ plan: 'Developer' });
    const created = await call('POST', '/v1/invoices', {
      key: account.secret,
      body: { ...VALID_INVOICE, description: 'body-marker-123' },
      headers: { 'Idempotency-Key': 'order-77' },
    });
    expect(created.status).toBe(201);
    const notFound = await call('GET', '/v1/invoices/inv_000000000000000000000000', { key: account.secret });
    expect(notFound.status).toBe(404);
    // The query string is never logged (it may carry what the client should not have put there).
    const withQuery = await call('GET', '/v1/invoices?limit=1&secret-ish=marker-in-query', { key: account.secret });
    expect(withQuery.status).toBe(400); // an unknown query parameter
    const invalid = await call('POST', '/v1/invoices', { key: account.secret, body: { amount: 'x' } });
    expect(invalid.status).toBe(400);
    await revokeApiKey(account.key.id, account.workspace.id);
    const revoked = await call('GET', '/v1/me', { key: account.secret });
    expect(revoked.status).toBe(401);

    const ids = [created, notFound, withQuery, invalid, revoked].map((r) => r.headers.get('request-id')!);
    const rows = await logged(ids);
    expect(rows.map((r) => [r.method, r.path, r.status])).toEqual([
      ['POST', '/v1/invoices', 201],
      ['GET', '/v1/invoices/inv_000000000000000000000000', 404],
      ['GET', '/v1/invoices', 400],
      ['POST', '/v1/invoices', 400],
      ['GET', '/v1/me', 401],
    ]);
    for (const row of rows) {
      expect(row).toMatchObject({
        workspace_id: account.workspace.id,
        environment: 'test',
        key_id: account.key.id,
        key_prefix: account.key.prefix,
      });
      expect(row.duration_ms).toEqual(expect.any(Number));
      expect(row.created_at).toBeInstanceOf(Date);
    }
    expect(rows[0]!.idempotency_key).toBe('order-77');
    expect(rows[1]!.idempotency_key).toBeNull();
    const everything = JSON.stringify(rows);
    expect(everything).not.toContain(account.secret);
    expect(everything).not.toContain(account.secret.slice(5, 25));
    expect(everything).not.toContain('body-marker-123');
    expect(everything).not.toContain('limit=1');
    expect(everything).not.toContain('marker-in-query');
  });

  it('a request without a known key is not logged (there is no workspace to show it to)', async () => {
    const result = await call('GET', '/v1/me', { key: 'test_' + 'A'.repeat(36) });
    expect(result.status).toBe(401);
    const { rows } = await admin.query(`SELECT 1 FROM request_log WHERE request_id = $1`, [
      result.headers.get('request-id'),
    ]);
    expect(rows).toHaveLength(0);
  });

  it('rows older than 7 days are pruned', async () => {
    const account = await seedAccount({ plan: 'Developer' });
    await admin.query(
      `INSERT INTO request_log (workspace_id, environment, key_id, key_prefix, method, path, status, duration_ms, request_id, created_at)
       VALUES ($1, 'test', $2, 'test_x', 'GET', '/v1/me', 200, 1, 'req_old', now() - interval '8 days'),
              ($1, 'test', $2, 'test_x', 'GET', '/v1/me', 200, 1, 'req_recent', now() - interval '6 days')`,
      [account.workspace.id, account.key.id],
    );
    expect(await pruneRequestLog()).toBeGreaterThanOrEqual(1);
    const { rows } = await admin.query(`SELECT request_id FROM request_log WHERE workspace_id = $1`, [
      account.workspace.id,
    ]);
    expect(rows.map((r) => r.request_id)).toEqual(['req_recent']);
  });
});
