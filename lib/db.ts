import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { PrismaClient } from './generated/prisma/client';
import { databaseUrl, env } from './env';

// One client per process; Next's dev server reloads modules, so keep it on globalThis.
const globalForPrisma = globalThis as unknown as { prisma?: PrismaClient; pool?: pg.Pool; durable?: pg.Pool };

function createPool(options: pg.PoolConfig = {}): pg.Pool {
  const created = new pg.Pool({ connectionString: databaseUrl(), max: env().DATABASE_POOL_SIZE, ...options });
  // An idle connection dropped by the server (restart, failover, pg_terminate_backend) is discarded by the
  // pool; without a listener the 'error' event would crash the process. Requests in flight get their own error.
  created.on('error', (error) => console.error(JSON.stringify({ level: 'warn', event: 'db_idle_connection_lost', message: error.message })));
  return created;
}

/** The pool behind Prisma, with durable commits; also used directly for the invoice INSERT of the API. */
export function durablePool(): pg.Pool {
  globalForPrisma.durable ??= createPool();
  return globalForPrisma.durable;
}

function createClient(): PrismaClient {
  const adapter = new PrismaPg(durablePool());
  return new PrismaClient({ adapter, omit: { apiKey: { secretHash: true }, user: { passwordHash: true } } });
}

export function db(): PrismaClient {
  globalForPrisma.prisma ??= createClient();
  return globalForPrisma.prisma;
}

/**
 * A plain pg pool for the statements that run on every API request: authentication with metering, and the
 * invoice reads. Named prepared statements, no ORM layer.
 *
 * Its sessions use synchronous_commit = off (unless METERING_DURABLE_COMMIT=true): the metering writes
 * (usage counters, rate windows, last_used_at) commit without waiting for the WAL flush. Atomicity, the
 * limits and isolation are unchanged; the only cost is that a PostgreSQL crash can lose the last fraction of
 * a second of counter increments (never a double count). Durable data — invoices, keys, revocations — is
 * never written through this pool.
 */
export function hotPathPool(): pg.Pool {
  globalForPrisma.pool ??= createPool({ options: env().METERING_DURABLE_COMMIT ? undefined : '-c synchronous_commit=off' });
  return globalForPrisma.pool;
}

export async function disconnectDb(): Promise<void> {
  await globalForPrisma.prisma?.$disconnect();
  await globalForPrisma.pool?.end();
  await globalForPrisma.durable?.end().catch(() => undefined);
  globalForPrisma.prisma = undefined;
  globalForPrisma.pool = undefined;
  globalForPrisma.durable = undefined;
}

export type { Prisma } from './generated/prisma/client';
