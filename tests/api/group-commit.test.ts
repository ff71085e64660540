import { describe, expect, it } from 'vitest';
import { db } from '@/lib/db';
import { runBatchedInGroupCommit, runInGroupCommit, type BatchedStatement } from '@/lib/db-group-commit';
import { createInvoice } from '@/lib/invoices/invoices';
import { CreateInvoiceBody } from '@/lib/invoices/schemas';
import { isIdempotencyConflict, type IdempotencyClaim } from '@/lib/idempotency/record';
import { requestFingerprint } from '@/lib/api/idempotency';
import { invoiceCount, seedAccount, VALID_INVOICE } from '../support/fixtures';

/** The transaction that wrote each row (xmin): rows of one commit share it. */
async function writers(table: 'invoices' | 'events', column: 'id' | 'snapshot', ids: string[]): Promise<string[]> {
  const where = column === 'id' ? 'id = ANY($1::text[])' : `snapshot->>'id' = ANY($1::text[])`;
  const rows = await db().$queryRawUnsafe<Array<{ writer: string }>>(
    `SELECT xmin::text AS writer FROM ${table} WHERE ${where}`,
    ids,
  );
  return rows.map((row) => row.writer);
}

describe('group commit of invoice creates (lib/db-group-commit.ts)', () => {
  it('creates of the same moment share one durable commit, each with its own invoice and invoice.created event', async () => {
    const { workspace } = await seedAccount();
    const scope = { workspaceId: workspace.id, environment: 'test' as const };
    const created = await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        createInvoice(scope, { ...VALID_INVOICE, order_id: `group-${i}`, expires_in: 3600 }),
      ),
    );

    expect(new Set(created.map((invoice) => invoice.id)).size).toBe(5);
    expect(created.map((invoice) => invoice.order_id)).toEqual(['group-0', 'group-1', 'group-2', 'group-3', 'group-4']);
    const ids = created.map((invoice) => invoice.id);
    const invoiceWriters = await writers('invoices', 'id', ids);
    const eventWriters = await writers('events', 'snapshot', ids);
    expect(invoiceWriters).toHaveLength(5);
    expect(eventWriters).toHaveLength(5);
    expect(new Set([...invoiceWriters, ...eventWriters]).size).toBe(1);
    // One statement wrote them all (a batch), and the events' order is the creates' order.
    const events = await db().event.findMany({
      where: { workspaceId: workspace.id, type: 'invoice.created' },
      orderBy: { seq: 'asc' },
      select: { snapshot: true },
    });
    expect(events.map((event) => (event.snapshot as { id: string }).id)).toEqual(ids);
  });

  it('a batch with a row PostgreSQL refuses runs again row by row: only that row fails', async () => {
    const table = `group_commit_batch_probe_${Date.now()}`;
    await db().$executeRawUnsafe(`CREATE TABLE ${table} (k int CHECK (k > 0))`);
    const probe: BatchedStatement<number, { k: number }> = {
      build: (inputs) => ({
        text: `INSERT INTO ${table} (k) SELECT value::int FROM jsonb_array_elements_text($1::jsonb) RETURNING k`,
        values: [inputs],
      }),
      key: (input) => String(input),
      owner: (row) => String(row.k),
    };
    try {
      const outcomes = await Promise.allSettled([3, -1, 5].map((k) => runBatchedInGroupCommit(probe, k)));
      expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
      expect((outcomes[0] as PromiseFulfilledResult<Array<{ k: number }>>).value).toEqual([{ k: 3 }]);
      expect((outcomes[2] as PromiseFulfilledResult<Array<{ k: number }>>).value).toEqual([{ k: 5 }]);
      expect(String((outcomes[1] as PromiseRejectedResult).reason)).toMatch(/check constraint/);
      const rows = await db().$queryRawUnsafe<Array<{ k: number }>>(`SELECT k FROM ${table} ORDER BY k`);
      expect(rows.map((row) => row.k)).toEqual([3, 5]);
    } finally {
      await db().$executeRawUnsafe(`DROP TABLE ${table}`);
    }
  });

  it('a statement that fails in a group fails alone: the others of its group are stored and answered', async () => {
    const { workspace } = await seedAccount();
    const scope = { workspaceId: workspace.id, environment: 'test' as const };
    const [first, broken, second] = await Promise.allSettled([
      createInvoice(scope, { ...VALID_INVOICE, order_id: 'before', expires_in: 3600 }),
      runInGroupCommit('SELECT 1 / $1::int AS quotient', [0]),
      createInvoice(scope, { ...VALID_INVOICE, order_id: 'after', expires_in: 3600 }),
    ]);

    expect(broken.status).toBe('rejected');
    expect(String((broken as PromiseRejectedResult).reason)).toMatch(/division by zero/);
    expect(first.status).toBe('fulfilled');
    expect(second.status).toBe('fulfilled');
    const stored = await db().invoice.findMany({ where: { workspaceId: workspace.id }, select: { orderId: true } });
    expect(stored.map((row) => row.orderId).sort()).toEqual(['after', 'before']);
    const events = await db().event.count({ where: { workspaceId: workspace.id, type: 'invoice.created' } });
    expect(events).toBe(2);
  });

  it('a group whose COMMIT is refused runs each statement again alone, so only the conflicting one fails', async () => {
    // A deferred unique constraint is checked at COMMIT: in a group, both inserts of k = 1 pass and the COMMIT
    // fails; alone, one of them commits and the other is refused.
    const table = `group_commit_probe_${Date.now()}`;
    await db().$executeRawUnsafe(`CREATE TABLE ${table} (k int UNIQUE DEFERRABLE INITIALLY DEFERRED)`);
    try {
      const outcomes = await Promise.allSettled([
        runInGroupCommit(`INSERT INTO ${table} (k) VALUES ($1::int) RETURNING k`, [1]),
        runInGroupCommit(`INSERT INTO ${table} (k) VALUES ($1::int) RETURNING k`, [2]),
        runInGroupCommit(`INSERT INTO ${table} (k) VALUES ($1::int) RETURNING k`, [1]),
      ]);
      // Run alone, the two inserts of k = 1 race: either may be the one refused.
      expect(outcomes[1]!.status).toBe('fulfilled');
      const ofOne = [outcomes[0]!, outcomes[2]!];
      expect(ofOne.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(1);
      const refused = ofOne.find((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected');
      expect(String(refused?.reason)).toMatch(/duplicate key/);
      const rows = await db().$queryRawUnsafe<Array<{ k: number }>>(`SELECT k FROM ${table} ORDER BY k`);
      expect(rows.map((row) => row.k)).toEqual([1, 2]);
    } finally {
      await db().$executeRawUnsafe(`DROP TABLE ${table}`);
    }
  });

  it('creates of one moment with one Idempotency-Key: one invoice with its record, the others refused on the key', async () => {
    const account = await seedAccount();
    const scope = { workspaceId: account.workspace.id, environment: 'test' as const };
    const now = new Date();
    const claim = (): IdempotencyClaim => ({
      ...scope,
      key: 'one-moment',
      fingerprint: requestFingerprint('POST', '/v1/invoices', VALID_INVOICE),
      status: 201,
      at: now,
      recorded: false,
    });
    const outcomes = await Promise.allSettled(
      Array.from({ length: 20 }, () => createInvoice(scope, CreateInvoiceBody.parse(VALID_INVOICE), now, claim())),
    );
    const refused = outcomes.flatMap((outcome) => (outcome.status === 'rejected' ? [outcome.reason as unknown] : []));
    expect(refused.filter((error) => !isIdempotencyConflict(error)).map(String)).toEqual([]);
    expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(1);
    expect(await invoiceCount(account.workspace.id)).toBe(1);
    const record = await db().idempotencyRecord.findFirstOrThrow({
      where: { workspaceId: account.workspace.id, key: 'one-moment' },
    });
    expect(record.responseStatus).toBe(201);
    expect(record.responseSnapshot).not.toBeNull();
  });
});
