import pg from 'pg';
import postgres from 'postgres';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runWatcher } from '@/lib/chain/watcher';
import { db, disconnectDb } from '@/lib/db';
import { isDatabaseUnavailable } from '@/lib/db-unavailable';
import { createWebhookEndpoint } from '@/lib/webhooks/endpoints';
import type { WorkerProcess } from '../../scripts/worker-process';
import {
  ensureEmbeddedDatabase,
  freePort,
  makeTempDir,
  restartEmbeddedServer,
  type EmbeddedDatabase,
} from '../../scripts/db/embedded';
import { migrate } from '../../scripts/db/migrate';
import { startNext, type NextServer } from '../../scripts/next-app';
import { watcher } from '../support/chain';
import { seedAccount, VALID_INVOICE } from '../support/fixtures';
import { call } from '../support/http';
import { startReceiver, type Receiver } from '../support/receiver';
import { eventually, startTestWorker } from '../support/worker';

/**
 * A real restart of PostgreSQL (fast shutdown, then start, as a managed database's maintenance does) while an app
 * server, a worker and a chain watcher use it. The file runs on a PostgreSQL and an app server of its own: the
 * suite's server holds the other lanes' databases, which a restart would disturb.
 */
let tempDir = '';
let own: EmbeddedDatabase | undefined;
let server: NextServer | undefined;
const laneEnv = { DATABASE_URL: process.env.DATABASE_URL, TEST_BASE_URL: process.env.TEST_BASE_URL };

beforeAll(async () => {
  tempDir = makeTempDir('restart-test-');
  own = await ensureEmbeddedDatabase({
    dataDir: path.join(tempDir, 'postgres'),
    port: 0,
    database: 'restart_test',
    verbose: false,
  });
  await migrate(own.url, { quiet: true });
  process.env.DATABASE_URL = own.url;
  await disconnectDb(); // this process's clients now connect to the file's own server
  const port = await freePort();
  server = await startNext({ port, databaseUrl: own.url, stdio: 'pipe', publicUrl: `http://127.0.0.1:${port}` });
  process.env.TEST_BASE_URL = server.baseUrl;
}, 300_000);

afterAll(async () => {
  await server?.stop();
  await disconnectDb();
  await own?.stop();
  if (tempDir) rmSync(tempDir, { recursive: true, force: true });
  Object.assign(process.env, laneEnv);
}, 120_000);

async function theServer(): Promise<{ dataDir: string; port: number }> {
  const url = new URL(own!.url);
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  try {
    const { rows } = await client.query<{ data_directory: string }>('SHOW data_directory');
    return { dataDir: rows[0]!.data_directory, port: Number(url.port) };
  } finally {
    await client.end();
  }
}

async function restartDatabase(whileDown: () => Promise<void> = async () => {}): Promise<void> {
  const { dataDir, port } = await theServer();
  await restartEmbeddedServer(dataDir, port, whileDown);
}

const workers: WorkerProcess[] = [];
const receivers: Receiver[] = [];
afterEach(async (context) => {
  if (context.task.result?.state === 'fail')
    workers.forEach((worker) => console.error(`--- worker output ---\n${worker.output()}`));
  await Promise.all(workers.splice(0).map((worker) => worker.stop()));
  await Promise.all(receivers.splice(0).map((receiver) => receiver.close()));
});

describe('a PostgreSQL restart', () => {
  it('one classifier: Prisma, pg and postgres.js errors of a restart are "unavailable"; a SQL error is not', async () => {
    const url = process.env.DATABASE_URL!;
    const pool = new pg.Pool({ connectionString: url, max: 1 });
    pool.on('error', () => undefined);
    const sql = postgres(url, { max: 1, onnotice: () => undefined });
    try {
      const clients: Record<string, (text: string) => Promise<unknown>> = {
        prismaRaw: (text) => db().$queryRawUnsafe(text),
        prismaModel: (text) =>
          text === 'SELECT 1'
            ? db().workspace.count()
            : db().workspace.count({ where: { plan: 'no-such-plan' as never } }),
        pg: (text) => pool.query(text),
        postgresJs: (text) => sql.unsafe(text),
      };
      for (const [name, run] of Object.entries(clients)) {
        const refused = await run('SELECT nonsense FROM nowhere').then(
          () => null,
          (error: unknown) => error,
        );
        expect(refused, `${name}: a SQL error`).not.toBeNull();
        expect(isDatabaseUnavailable(refused), `${name}: a SQL error is not unavailability`).toBe(false);
        await run('SELECT 1'); // a live connection, terminated by the shutdown below
      }
      const seen: Array<[string, unknown]> = [];
      // Statements in flight when the server shuts down (57P01 and friends), then statements while it is down.
      // (A model query cannot run pg_sleep: Prisma's model API is tested while the server is down.)
      const inFlight = Object.entries(clients)
        .filter(([name]) => name !== 'prismaModel')
        .map(([name, run]) =>
          run('SELECT pg_sleep(30)').then(
            () => seen.push([`${name} in flight`, null]),
            (error: unknown) => seen.push([`${name} in flight`, error]),
          ),
        );
      const observer = new pg.Client({ connectionString: url });
      await observer.connect();
      try {
        await eventually(
          async () => {
            const { rows } = await observer.query(
              `SELECT count(*)::int AS n FROM pg_stat_activity WHERE query = 'SELECT pg_sleep(30)'`,
            );
            return rows[0].n >= 3;
          },
          20_000,
          'the sleeping statements',
        );
      } finally {
        await observer.end();
      }
      await restartDatabase(async () => {
        await Promise.all(inFlight);
        for (const [name, run] of Object.entries(clients)) {
          seen.push([
            `${name} while down`,
            await run('SELECT 1').then(
              () => null,
              (error: unknown) => error,
            ),
          ]);
        }
      });
      for (const [what, error] of seen) {
        expect(error, `${what}: failed`).not.toBeNull();
        expect(isDatabaseUnavailable(error), `${what}: ${String(error)}`).toBe(true);
      }
      // And every client works again afterwards.
      for (const [name, run] of Object.entries(clients))
        await eventually(
          () =>
            run('SELECT 1').then(
              () => true,
              () => false,
            ),
          20_000,
          `${name} again`,
        );
    } finally {
      await pool.end().catch(() => undefined);
      await sql.end({ timeout: 1 }).catch(() => undefined);
    }
  }, 90_000);

  it('the API answers 503 with Retry-After while it is down, never 500, and creates again once it is back', async () => {
    const account = await seedAccount();
    const statuses: number[] = [];
    let restartedAt = 0;
    await restartDatabase(async () => {
      for (const [method, path, body] of [
        ['GET', '/v1/me', undefined],
        ['POST', '/v1/invoices', VALID_INVOICE],
        ['GET', '/v1/invoices', undefined],
      ] as const) {
        const result = await call(method, path, {
          key: account.secret,
          body,
          headers: { 'Idempotency-Key': `down-${path}` },
        });
        statuses.push(result.status);
        expect(result.status, `${method} ${path}: ${result.text}`).toBe(503);
        expect(result.headers.get('retry-after')).toBeTruthy();
        expect(result.json.code).toBe('service_unavailable');
      }
    });
    restartedAt = Date.now();
    const created = await eventually(
      async () => {
        const result = await call('POST', '/v1/invoices', {
          key: account.secret,
          body: VALID_INVOICE,
          headers: { 'Idempotency-Key': 'after-restart' },
        });
        expect([201, 503]).toContain(result.status);
        return result.status === 201 ? result : undefined;
      },
      30_000,
      'a create after the restart',
    );
    expect(created.json.id).toMatch(/^inv_/);
    console.error(
      `first create after the restart succeeded ${((Date.now() - restartedAt) / 1000).toFixed(2)} s after PostgreSQL was back`,
    );
  }, 90_000);

  it('the worker survives it: deliveries in flight and after it all arrive, the same process keeps running', async () => {
    const account = await seedAccount();
    const receiver = await startReceiver();
    receivers.push(receiver);
    await createWebhookEndpoint(
      account.workspace.id,
      { url: receiver.url, environment: 'test' },
      { allowPrivateNetworks: true },
    );
    const worker = await startTestWorker();
    workers.push(worker);
    const create = async () =>
      expect((await call('POST', '/v1/invoices', { key: account.secret, body: VALID_INVOICE })).status).toBe(201);
    for (let i = 0; i < 10; i++) await create();
    await restartDatabase();
    await eventually(
      async () => (await call('GET', '/v1/me', { key: account.secret })).status === 200,
      30_000,
      'the API after the restart',
    );
    for (let i = 0; i < 5; i++) await create();
    const received = await receiver.waitFor(15, 60_000);
    expect(new Set(received.map((request) => request.headers['webhook-id'])).size).toBe(15);
    expect(worker.child.exitCode).toBeNull();
    expect(worker.child.signalCode).toBeNull();
  }, 120_000);

  it('a chain watcher resumes: its advisory-lock connection is opened again and passes go on', async () => {
    const controller = new AbortController();
    const leaderships: boolean[] = [];
    const passes: Date[] = [];
    const running = runWatcher(watcher(), controller.signal, {
      intervalMs: 100,
      maxBackoffMs: 1000,
      log: () => undefined,
      onLeadership: (leader) => leaderships.push(leader),
      onPass: (at) => passes.push(at),
    });
    try {
      await eventually(async () => passes.length > 0, 30_000, 'a first pass');
      await restartDatabase();
      const back = new Date();
      await eventually(async () => passes.some((at) => at > back), 60_000, 'a pass after the restart');
      expect(leaderships.filter(Boolean).length).toBeGreaterThanOrEqual(2); // the lock was taken again
      const rows = await db().$queryRawUnsafe<Array<{ n: number }>>(
        `SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND granted AND objsubid = 2`,
      );
      expect(rows[0]!.n).toBe(1);
    } finally {
      controller.abort();
      await running;
    }
  }, 120_000);
});
