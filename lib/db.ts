import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import postgres from 'postgres';
import { PrismaClient } from './generated/prisma/client';
import { databaseUrl, env } from './env';

// One client of each kind per process; Next's dev server reloads modules, so keep them on globalThis.
const clients = globalThis as unknown as {
  prisma?: PrismaClient;
  durable?: pg.Pool;
  metering?: postgres.Sql;
  durableHotPath?: postgres.Sql;
};

function createPool(options: pg.PoolConfig = {}): pg.Pool {
  const created = new pg.Pool({ connectionString: databaseUrl(), max: env().DATABASE_POOL_SIZE, ...options });
  // An idle connection dropped by the server (restart, failover, pg_terminate_backend) is discarded by the
  // pool; without a listener the 'error' event would crash the process. Requests in flight get their own error.
  created.on('error', (error) =>
    console.error(JSON.stringify({ level: 'warn', event: 'db_idle_connection_lost', message: error.message })),
  );
  return created;
}

/** The pool behind Prisma (portal, admin CLI, invoice transitions), with durable commits. */
export function durablePool(): pg.Pool {
  clients.durable ??= createPool();
  return clients.durable;
}

function createClient(): PrismaClient {
  const adapter = new PrismaPg(durablePool());
  // Prisma's defaults (2 s to get a connection, 5 s per transaction) fail a burst of serialised transactions on
  // a busy machine (e.g. key creations queued on the workspace row lock): waiting longer is the right answer.
  return new PrismaClient({
    adapter,
    transactionOptions: { maxWait: 10_000, timeout: 20_000 },
    omit: { apiKey: { secretHash: true }, user: { passwordHash: true, totpSecretCiphertext: true } },
  });
}

export function db(): PrismaClient {
  clients.prisma ??= createClient();
  return clients.prisma;
}

/**
 * The API's hot path runs on postgres.js rather than `pg`: it pipelines concurrent statements on its
 * connections (one socket write and one backend wake-up serve many requests), where `pg` pays a write and a
 * wake-up per statement. Measured on one `next start` under 50 connections: a route making one `pg` round trip
 * ran at ≈ 0.7× of a route making none; the same round trip through postgres.js at ≈ 0.95–1.0× (docs/benchmarks.md).
 * Every statement is a single auto-committed statement, so pipelining never mixes two requests' transactions.
 */
function createHotPathClient(connection: Record<string, string>): postgres.Sql {
  return postgres(databaseUrl(), {
    // Few connections: statements pipeline on them, so fewer backends wake up per request (measured: 3
    // connections used ≈ 25% less database CPU per request than 10). The price is head-of-line blocking: a
    // statement that waits (a lock) delays those queued behind it on its connection.
    max: env().DATABASE_HOT_PATH_CONNECTIONS,
    prepare: true,
    connection,
    onnotice: () => undefined,
    // Lost connections are replaced on the next statement; the statement in flight fails (→ 503).
    idle_timeout: 0,
  });
}

/**
 * Metering sessions: authentication with metering, and the invoice reads. They commit with
 * synchronous_commit = off (unless METERING_DURABLE_COMMIT=true): usage counters, rate windows and
 * last_used_at commit without waiting for the WAL flush. Atomicity, the limits and isolation are unchanged;
 * a PostgreSQL crash can lose the last fraction of a second of counter increments (never double-count).
 * Durable data — invoices, keys, revocations — is never written through this client.
 */
export function meteringSql(): postgres.Sql {
  clients.metering ??= createHotPathClient(env().METERING_DURABLE_COMMIT ? {} : { synchronous_commit: 'off' });
  return clients.metering;
}

/** Durable sessions on the hot path: the API's invoice INSERT (an invoice must survive a crash). */
export function durableSql(): postgres.Sql {
  clients.durableHotPath ??= createHotPathClient({ synchronous_commit: 'on' });
  return clients.durableHotPath;
}

/** One prepared statement with positional parameters ($1…) on a hot-path client; sent when first awaited or executed. */
export function runStatement<Row extends object>(
  sql: postgres.Sql,
  text: string,
  values: readonly unknown[],
): postgres.PendingQuery<Row[]> {
  // postgres.js serialises each parameter by the type the server infers for it: a jsonb parameter takes the
  // object itself (a string would be stored as a JSON string), the others strings, numbers, booleans, Dates, null.
  return sql.unsafe<Row[]>(text, values as postgres.ParameterOrJSON<never>[], { prepare: true });
}

/**
 * Options for Prisma interactive transactions in the worker and the portal: Prisma's defaults (2 s to get a
 * connection, 5 s in all) fail healthy transactions on a loaded machine, and a failed record-keeping step
 * after an HTTP attempt would make the worker repeat the attempt.
 */
export const TRANSACTION_OPTIONS = { maxWait: 10_000, timeout: 30_000 } as const;

export async function disconnectDb(): Promise<void> {
  await clients.prisma?.$disconnect();
  await clients.metering?.end({ timeout: 5 });
  await clients.durableHotPath?.end({ timeout: 5 });
  await clients.durable?.end().catch(() => undefined);
  clients.prisma = undefined;
  clients.metering = undefined;
  clients.durableHotPath = undefined;
  clients.durable = undefined;
}

export type { Prisma } from './generated/prisma/client';
