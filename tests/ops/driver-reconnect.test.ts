import pg from 'pg';
import postgres from 'postgres';
import { afterAll, describe, expect, it } from 'vitest';
import { isDatabaseUnavailable } from '@/lib/db-unavailable';
import { eventually } from '../support/worker';

/**
 * A connection PostgreSQL ends during a statement (pg_terminate_backend, as a failover does): the statement fails
 * as "unavailable", and the next statement on the same client runs on a new connection. postgres.js 3.4.9 gave
 * that next statement the old connection's error; scripts/patch-dependencies.mjs fixes it after every install.
 */
describe('the hot-path driver after a connection is ended mid-statement', () => {
  const sql = postgres(process.env.DATABASE_URL!, { max: 1, prepare: true, onnotice: () => undefined });
  const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
  afterAll(async () => {
    await sql.end({ timeout: 5 });
    await admin.end();
  });

  it('the statement in flight fails as unavailable; the next one succeeds on a new connection', async () => {
    await admin.connect();
    const [before] = await sql<{ pid: number }[]>`SELECT pg_backend_pid() AS pid`;
    const inFlight = sql.unsafe('SELECT pg_sleep(30)').then(
      () => null,
      (error: unknown) => error,
    );
    await eventually(
      async () =>
        (
          await admin.query(`SELECT 1 FROM pg_stat_activity WHERE pid = $1 AND query = 'SELECT pg_sleep(30)'`, [
            before!.pid,
          ])
        ).rowCount === 1,
      20_000,
      'the statement to run',
    );
    await admin.query('SELECT pg_terminate_backend($1)', [before!.pid]);
    const failed = await inFlight;
    expect(failed).not.toBeNull();
    expect(isDatabaseUnavailable(failed)).toBe(true);

    const [after] = await sql<{ pid: number }[]>`SELECT pg_backend_pid() AS pid`;
    expect(after!.pid).not.toBe(before!.pid);
  });
});
