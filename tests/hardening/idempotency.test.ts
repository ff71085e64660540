import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { db } from '@/lib/db';
import { pruneIdempotencyRecords, requestFingerprint } from '@/lib/api/idempotency';
import { startAdditionalApp } from '../setup/app';
import { createKey, invoiceCount, LIVE_INVOICE, seedAccount, VALID_INVOICE } from '../support/fixtures';
import { call, expectProblem } from '../support/http';

const post = (secret: string, idempotencyKey: string, body: unknown = VALID_INVOICE) =>
  call('POST', '/v1/invoices', { key: secret, body, headers: { 'Idempotency-Key': idempotencyKey } });

describe('Idempotency-Key', () => {
  it('20 parallel POSTs with the same key and body → one invoice and 19 identical replays', async () => {
    const account = await seedAccount();
    const results = await Promise.all(Array.from({ length: 20 }, () => post(account.secret, 'order-1001-attempt')));
    expect(results.map((r) => r.status)).toEqual(Array(20).fill(201));
    expect(results.filter((r) => r.headers.get('idempotent-replayed') === 'true')).toHaveLength(19);
    expect(new Set(results.map((r) => r.text)).size).toBe(1);
    expect(await invoiceCount(account.workspace.id)).toBe(1);
  });

  it('20 parallel POSTs spread over two app instances on one database → one invoice, 19 replays', async () => {
    const other = await startAdditionalApp();
    try {
      const account = await seedAccount();
      const results = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          call('POST', '/v1/invoices', { key: account.secret, body: VALID_INVOICE, headers: { 'Idempotency-Key': 'two-instances' }, base: i % 2 ? other.baseUrl : undefined }),
        ),
      );
      expect(results.map((r) => r.status)).toEqual(Array(20).fill(201));
      expect(results.filter((r) => r.headers.get('idempotent-replayed') === 'true')).toHaveLength(19);
      expect(new Set(results.map((r) => r.text)).size).toBe(1);
      expect(await invoiceCount(account.workspace.id)).toBe(1);
    } finally {
      await other.stop();
    }
  });

  it('a request truly in flight (its INSERT held by a lock): the same key gets 409, later the replay', async () => {
    const account = await seedAccount();
    const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await admin.connect();
    try {
      await admin.query('BEGIN');
      await admin.query('LOCK TABLE invoices IN SHARE MODE'); // blocks INSERTs, not reads
      const first = post(account.secret, 'held');
      await new Promise((resolve) => setTimeout(resolve, 300));
      const second = await post(account.secret, 'held'); // waits up to 1.5 s for the first, then gives up
      expectProblem(second, 409, 'idempotency_key_in_use');
      await admin.query('COMMIT');
      const done = await first;
      expect(done.status).toBe(201);
      const third = await post(account.secret, 'held');
      expect(third.headers.get('idempotent-replayed')).toBe('true');
      expect(third.json.id).toBe(done.json.id);
      expect(await invoiceCount(account.workspace.id)).toBe(1);
    } finally {
      await admin.query('ROLLBACK').catch(() => undefined);
      await admin.end();
    }
  });

  it('a sequential retry replays the stored response, with its own Request-Id', async () => {
    const account = await seedAccount();
    const first = await post(account.secret, 'retry-1');
    const second = await post(account.secret, 'retry-1', { network: 'tron', currency: 'USDT', amount: '10.50' });
    expect(second.status).toBe(201);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    expect(second.json).toEqual(first.json);
    expect(second.headers.get('request-id')).not.toBe(first.headers.get('request-id'));
  });

  it('the same key with another body → 422 idempotency_key_reused, nothing written', async () => {
    const account = await seedAccount();
    await post(account.secret, 'reused');
    const result = await post(account.secret, 'reused', { ...VALID_INVOICE, amount: '11' });
    expectProblem(result, 422, 'idempotency_key_reused');
    expect(await invoiceCount(account.workspace.id)).toBe(1);
  });

  it('the same key on another endpoint → 422', async () => {
    const account = await seedAccount();
    const invoice = (await post(account.secret, 'cross-endpoint')).json;
    const result = await call('POST', `/v1/invoices/${invoice.id}/cancel`, { key: account.secret, headers: { 'Idempotency-Key': 'cross-endpoint' } });
    expectProblem(result, 422, 'idempotency_key_reused');
  });

  it('keys are scoped to workspace and environment: the same value elsewhere is independent', async () => {
    const a = await seedAccount();
    const b = await seedAccount();
    const [ra, rb] = await Promise.all([post(a.secret, 'shared-value'), post(b.secret, 'shared-value', { ...VALID_INVOICE, amount: '99' })]);
    expect([ra.status, rb.status]).toEqual([201, 201]);
    expect(ra.json.id).not.toBe(rb.json.id);
    expect(rb.json.amount).toBe('99');
    expect(await invoiceCount(a.workspace.id)).toBe(1);
    expect(await invoiceCount(b.workspace.id)).toBe(1);
  });

  it('while the first request is in flight → 409 idempotency_key_in_use', async () => {
    const account = await seedAccount();
    // A claim without a response, as another instance holds while it is processing the first request.
    await db().idempotencyRecord.create({
      data: {
        workspaceId: account.workspace.id,
        environment: 'test',
        key: 'in-flight',
        requestHash: requestFingerprint('POST', '/v1/invoices', VALID_INVOICE),
      },
    });
    expectProblem(await post(account.secret, 'in-flight'), 409, 'idempotency_key_in_use');
    expect(await invoiceCount(account.workspace.id)).toBe(0);
  });

  it('a claim whose request died (in flight for over a minute) is taken over: the retry runs once', async () => {
    const account = await seedAccount();
    await db().idempotencyRecord.create({
      data: {
        workspaceId: account.workspace.id,
        environment: 'test',
        key: 'crashed',
        requestHash: requestFingerprint('POST', '/v1/invoices', VALID_INVOICE),
        createdAt: new Date(Date.now() - 2 * 60 * 1000),
      },
    });
    const [first, second] = [await post(account.secret, 'crashed'), await post(account.secret, 'crashed')];
    expect(first.status).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(second.json.id).toBe(first.json.id);
    expect(await invoiceCount(account.workspace.id)).toBe(1);
  });

  it('the same key value under a test key and a live key of one workspace is independent', async () => {
    const account = await seedAccount({ environment: 'live' });
    const testKey = await createKey(account.workspace.id, { environment: 'test' });
    const live = await post(account.secret, 'per-environment', LIVE_INVOICE); // no wallet: 422, stored for the live environment
    const test = await post(testKey.secret, 'per-environment', LIVE_INVOICE);
    expectProblem(live, 422, 'wallet_not_configured');
    expect(test.status).toBe(201);
    expect(test.headers.get('idempotent-replayed')).toBeNull();
  });

  it('pruning deletes only records past 24 h', async () => {
    const account = await seedAccount();
    await post(account.secret, 'prune-old');
    await post(account.secret, 'prune-new');
    await db().idempotencyRecord.updateMany({
      where: { workspaceId: account.workspace.id, key: 'prune-old' },
      data: { createdAt: new Date(Date.now() - 25 * 3600 * 1000) },
    });
    expect(await pruneIdempotencyRecords()).toBeGreaterThanOrEqual(1);
    const left = await db().idempotencyRecord.findMany({ where: { workspaceId: account.workspace.id }, select: { key: true } });
    expect(left.map((record) => record.key)).toEqual(['prune-new']);
  });

  it('domain refusals are stored and replayed too (422 wallet_not_configured)', async () => {
    const account = await seedAccount({ environment: 'live' });
    const first = await post(account.secret, 'no-wallet', LIVE_INVOICE);
    const second = await post(account.secret, 'no-wallet', LIVE_INVOICE);
    expectProblem(first, 422, 'wallet_not_configured');
    expect(second.status).toBe(422);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(second.json.code).toBe('wallet_not_configured');
  });

  it('validation failures are not stored: fixing the body with the same key works', async () => {
    const account = await seedAccount();
    expectProblem(await post(account.secret, 'fix-me', { ...VALID_INVOICE, amount: 'abc' }), 400, 'validation_failed');
    expect((await post(account.secret, 'fix-me')).status).toBe(201);
  });

  it('records older than 24 h are treated as absent', async () => {
    const account = await seedAccount();
    await post(account.secret, 'old-key');
    await db().idempotencyRecord.updateMany({ where: { workspaceId: account.workspace.id }, data: { createdAt: new Date(Date.now() - 25 * 3600 * 1000) } });
    const again = await post(account.secret, 'old-key', { ...VALID_INVOICE, amount: '12' });
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBeNull();
    expect(await invoiceCount(account.workspace.id)).toBe(2);
  });

  it('an over-long or empty Idempotency-Key → 400 naming the header', async () => {
    const account = await seedAccount();
    for (const value of ['x'.repeat(256)]) {
      const problem = expectProblem(await post(account.secret, value), 400, 'validation_failed');
      expect(problem.errors?.[0]?.path).toBe('Idempotency-Key');
    }
    expect(await invoiceCount(account.workspace.id)).toBe(0);
  });
});
