import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { db } from '@/lib/db';
import { freePort } from '../../scripts/db/embedded';
import { startNext, type NextServer } from '../../scripts/next-app';
import { invoiceCount, seedAccount, VALID_INVOICE } from '../support/fixtures';
import { call } from '../support/http';
import { eventually } from '../support/worker';

/**
 * Crashes between an operation's effect and its answer, on real processes: an app instance whose statement is
 * held by a lock is frozen (SIGSTOP), the lock is released so PostgreSQL commits the statement the instance sent,
 * then the instance is killed (SIGKILL) before it could answer or write anything else. The client's retry with
 * the same Idempotency-Key, on another instance, must get the original answer and never a second effect.
 */
const servers: NextServer[] = [];
const clients: pg.Client[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) {
    await client.query('ROLLBACK').catch(() => undefined);
    await client.end().catch(() => undefined);
  }
  await Promise.all(servers.splice(0).map((server) => server.stop()));
});

async function doomedInstance(): Promise<NextServer> {
  const port = await freePort();
  const server = await startNext({
    port,
    databaseUrl: process.env.DATABASE_URL!,
    stdio: 'pipe',
    publicUrl: `http://127.0.0.1:${port}`,
  });
  servers.push(server);
  return server;
}

async function adminClient(): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  clients.push(client);
  return client;
}

/** The backends waiting for a lock while running a statement that contains `fragment`. */
async function lockWaiters(admin: pg.Client, fragment: string): Promise<number[]> {
  await admin.query('SELECT pg_stat_clear_snapshot()'); // inside a transaction the view is otherwise read once
  const { rows } = await admin.query<{ pid: number }>(
    `SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE $1`,
    [`%${fragment}%`],
  );
  return rows.map((row) => row.pid);
}

/** Sends a request the test does not expect an answer to; resolves with the status, or null when the connection died. */
function send(server: NextServer, path: string, secret: string, key: string, body: unknown): Promise<number | null> {
  return fetch(`${server.baseUrl}${path}`, {
    method: 'POST',
    headers: { 'X-API-Key': secret, 'Idempotency-Key': key, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  }).then(
    (response) => response.status,
    () => null,
  );
}

/** Freezes `server` while its statement waits, lets PostgreSQL commit it, then kills the server. */
async function crashAfterCommit(
  server: NextServer,
  admin: pg.Client,
  committed: () => Promise<boolean>,
): Promise<void> {
  server.child.kill('SIGSTOP');
  await admin.query('COMMIT');
  await eventually(committed, 20_000, 'the frozen instance’s statement to commit');
  server.child.kill('SIGKILL');
  await server.exited;
}

describe('a crash between the effect and the answer', () => {
  it('create: the instance dies after the invoice committed → the retry replays it; one invoice', async () => {
    const account = await seedAccount();
    const doomed = await doomedInstance();
    const admin = await adminClient();
    // An uncommitted record for the same key (as a concurrent request's would be): invisible to the doomed
    // request's look-up, so its create runs and then waits on the key at execution, all its messages sent.
    await admin.query('BEGIN');
    await admin.query(
      `INSERT INTO idempotency_records (workspace_id, environment, key, request_hash, response_status, response_body, created_at)
       VALUES ($1, 'test', 'crash-create', 'x', 409, '{}', now())`,
      [account.workspace.id],
    );
    const lost = send(doomed, '/v1/invoices', account.secret, 'crash-create', VALID_INVOICE);
    await eventually(
      async () => (await lockWaiters(admin, 'INSERT INTO invoices')).length > 0,
      20_000,
      'the create to wait on the key',
    );
    doomed.child.kill('SIGSTOP');
    await admin.query('ROLLBACK'); // the other "request" died: the doomed one's statement goes on and commits
    await eventually(
      async () => (await invoiceCount(account.workspace.id)) === 1,
      20_000,
      'the frozen instance’s create to commit',
    );
    doomed.child.kill('SIGKILL');
    await doomed.exited;
    expect(await lost).toBeNull(); // the client never got an answer

    const retry = await call('POST', '/v1/invoices', {
      key: account.secret,
      body: VALID_INVOICE,
      headers: { 'Idempotency-Key': 'crash-create' },
    });
    expect(retry.status).toBe(201);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    const stored = await db().invoice.findFirstOrThrow({ where: { workspaceId: account.workspace.id } });
    expect(retry.json.id).toBe(stored.id);
    expect(await invoiceCount(account.workspace.id)).toBe(1);
    const again = await call('POST', '/v1/invoices', {
      key: account.secret,
      body: VALID_INVOICE,
      headers: { 'Idempotency-Key': 'crash-create' },
    });
    expect(again.text).toBe(retry.text);
  }, 120_000);

  it('payment: the instance dies after the transition committed → the retry replays 200, not 409; one event', async () => {
    const account = await seedAccount();
    const created = await call('POST', '/v1/invoices', { key: account.secret, body: VALID_INVOICE });
    const id = created.json.id as string;
    const doomed = await doomedInstance();
    const admin = await adminClient();
    await admin.query('BEGIN');
    await admin.query('SELECT 1 FROM invoices WHERE id = $1 FOR UPDATE', [id]);
    const path = `/v1/test/invoices/${id}/simulate-payment`;
    const lost = send(doomed, path, account.secret, 'crash-pay', {});
    await eventually(
      async () => (await lockWaiters(admin, 'UPDATE invoices')).length > 0,
      20_000,
      'the payment to wait on the row lock',
    );
    const paid = async () => (await db().invoice.findUniqueOrThrow({ where: { id } })).status === 'paid';
    await crashAfterCommit(doomed, admin, paid);
    expect(await lost).toBeNull();

    const retry = await call('POST', path, {
      key: account.secret,
      body: {},
      headers: { 'Idempotency-Key': 'crash-pay' },
    });
    expect(retry.status).toBe(200);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(retry.json.status).toBe('paid');
    const invoice = await db().invoice.findUniqueOrThrow({ where: { id } });
    expect(retry.json.payment.tx_hash).toBe(invoice.paymentTxHash);
    const events = await admin.query(`SELECT 1 FROM events WHERE type = 'invoice.paid' AND snapshot->>'id' = $1`, [id]);
    expect(events.rowCount).toBe(1);
  }, 120_000);

  it('the connection dies before the commit → the request runs again on a fresh connection, once; one invoice', async () => {
    const account = await seedAccount();
    const admin = await adminClient();
    await admin.query('BEGIN');
    await admin.query('LOCK TABLE invoices IN SHARE MODE');
    const first = call('POST', '/v1/invoices', {
      key: account.secret,
      body: VALID_INVOICE,
      headers: { 'Idempotency-Key': 'crash-connection' },
    });
    const waiter = async () => {
      const pids = await lockWaiters(admin, 'INSERT INTO invoices');
      return pids.length > 0 ? pids[0] : undefined;
    };
    const pid = await eventually(waiter, 20_000, 'the create to wait on the lock');
    await admin.query('SELECT pg_terminate_backend($1)', [pid]);
    // The statement died with its connection (nothing committed): the request looks its key up again and runs
    // its create on another connection, which waits on the lock in turn.
    await eventually(
      async () => ((await waiter()) ?? pid) !== pid,
      20_000,
      'the create to run again on another connection',
    );
    await admin.query('COMMIT');
    const created = await first;
    expect(created.status).toBe(201);
    expect(await invoiceCount(account.workspace.id)).toBe(1);
    const retry = await call('POST', '/v1/invoices', {
      key: account.secret,
      body: VALID_INVOICE,
      headers: { 'Idempotency-Key': 'crash-connection' },
    });
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(retry.json.id).toBe(created.json.id);
    expect(await invoiceCount(account.workspace.id)).toBe(1);
  }, 60_000);
});
