import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { db } from '@/lib/db';
import { pruneIdempotencyRecords, requestFingerprint } from '@/lib/api/idempotency';
import { startAdditionalApp } from '../setup/app';
import { createKey, invoiceCount, LIVE_INVOICE, seedAccount, VALID_INVOICE } from '../support/fixtures';
import { call, expectProblem } from '../support/http';
import { eventually } from '../support/worker';

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
    // Two instances of one deployment share its public URL (links in a replay are rendered with it).
    const other = await startAdditionalApp({ env: { PUBLIC_URL: process.env.TEST_BASE_URL! } });
    try {
      const account = await seedAccount();
      const results = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          call('POST', '/v1/invoices', {
            key: account.secret,
            body: VALID_INVOICE,
            headers: { 'Idempotency-Key': 'two-instances' },
            base: i % 2 ? other.baseUrl : undefined,
          }),
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

  it('a request truly in flight (its INSERT held by a lock): the same key waits for it and replays its answer', async () => {
    const account = await seedAccount();
    const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await admin.connect();
    const waiting = async () => {
      await admin.query('SELECT pg_stat_clear_snapshot()'); // inside a transaction the view is otherwise read once
      return (
        await admin.query(
          `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE '%INSERT INTO invoices%'`,
        )
      ).rows[0].n as number;
    };
    try {
      await admin.query('BEGIN');
      await admin.query('LOCK TABLE invoices IN SHARE MODE'); // blocks INSERTs, not reads
      const first = post(account.secret, 'held');
      await eventually(async () => (await waiting()) >= 1, 20_000, 'the first create to wait on the lock');
      // The second may queue behind the first on a pipelined connection or wait on the lock itself; either way
      // it must end as the first's replay, never as a 409 or a second invoice.
      const second = post(account.secret, 'held');
      await admin.query('COMMIT');
      const results = await Promise.all([first, second]);
      expect(results.map((r) => r.status)).toEqual([201, 201]);
      expect(results.filter((r) => r.headers.get('idempotent-replayed') === 'true')).toHaveLength(1);
      expect(results[0]!.json.id).toBe(results[1]!.json.id);
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
    const result = await call('POST', `/v1/invoices/${invoice.id}/cancel`, {
      key: account.secret,
      headers: { 'Idempotency-Key': 'cross-endpoint' },
    });
    expectProblem(result, 422, 'idempotency_key_reused');
  });

  it('keys are scoped to workspace and environment: the same value elsewhere is independent', async () => {
    const a = await seedAccount();
    const b = await seedAccount();
    const [ra, rb] = await Promise.all([
      post(a.secret, 'shared-value'),
      post(b.secret, 'shared-value', { ...VALID_INVOICE, amount: '99' }),
    ]);
    expect([ra.status, rb.status]).toEqual([201, 201]);
    expect(ra.json.id).not.toBe(rb.json.id);
    expect(rb.json.amount).toBe('99');
    expect(await invoiceCount(a.workspace.id)).toBe(1);
    expect(await invoiceCount(b.workspace.id)).toBe(1);
  });

  it('a claim without a response (left by an older version whose request died) never blocks: the retry runs once', async () => {
    const account = await seedAccount();
    await db().idempotencyRecord.create({
      data: {
        workspaceId: account.workspace.id,
        environment: 'test',
        key: 'crashed',
        requestHash: requestFingerprint('POST', '/v1/invoices', VALID_INVOICE),
      },
    });
    const [first, second] = [await post(account.secret, 'crashed'), await post(account.secret, 'crashed')];
    expect(first.status).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(second.json.id).toBe(first.json.id);
    expect(await invoiceCount(account.workspace.id)).toBe(1);
  });

  it('20 parallel cancels with one key → one transition and one event, 19 replays of its 200', async () => {
    const account = await seedAccount();
    const created = await post(account.secret, 'to-cancel');
    const id = created.json.id as string;
    const results = await Promise.all(
      Array.from({ length: 20 }, () =>
        call('POST', `/v1/invoices/${id}/cancel`, {
          key: account.secret,
          body: {},
          headers: { 'Idempotency-Key': 'cancel-once' },
        }),
      ),
    );
    expect(results.map((r) => r.status)).toEqual(Array(20).fill(200));
    expect(results.filter((r) => r.headers.get('idempotent-replayed') === 'true')).toHaveLength(19);
    expect(new Set(results.map((r) => r.text)).size).toBe(1);
    const events = await db().event.count({ where: { workspaceId: account.workspace.id, type: 'invoice.cancelled' } });
    expect(events).toBe(1);
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
    const left = await db().idempotencyRecord.findMany({
      where: { workspaceId: account.workspace.id },
      select: { key: true },
    });
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
    await db().idempotencyRecord.updateMany({
      where: { workspaceId: account.workspace.id },
      data: { createdAt: new Date(Date.now() - 25 * 3600 * 1000) },
    });
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
