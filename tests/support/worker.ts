import { db } from '@/lib/db';
import { startWorker, type WorkerProcess } from '../../scripts/worker-process';

/**
 * A real worker process (scripts/worker.ts) on the run's database, configured for tests: local receivers
 * allowed, a retry schedule of seconds instead of hours.
 */
export function startTestWorker(env: Record<string, string> = {}): Promise<WorkerProcess> {
  return startWorker({
    databaseUrl: process.env.DATABASE_URL ?? '',
    stdio: 'pipe',
    env: {
      WEBHOOK_ENCRYPTION_KEY: process.env.WEBHOOK_ENCRYPTION_KEY,
      // The same public origin as the app server, so hosted_url in delivered events matches GET /v1/events.
      PUBLIC_URL: process.env.TEST_BASE_URL,
      WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
      WEBHOOK_RETRY_SCHEDULE: '1,1,1,1',
      // These workers watch no chain: tests/chain drives its watchers itself, one pass at a time (a watcher here
      // would scan the suite's chain beside them).
      RPC_URL_ETHEREUM: '',
      RPC_URL_TRON: '',
      RPC_URL_BITCOIN: '',
      ...env,
    },
  });
}

/** Polls `check` until it returns a value (not undefined/false) or the deadline passes. */
export async function eventually<T>(
  check: () => Promise<T | undefined | false>,
  timeoutMs = 20_000,
  what = 'condition',
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/**
 * How many queue jobs with these job keys are still queued or running. Zero means nothing more can happen for
 * them: a job leaves the queue only after its attempt has finished, so a duplicate attempt would have arrived.
 */
export async function queuedJobs(jobKeys: string[]): Promise<number> {
  const rows = await db().$queryRaw<
    Array<{ count: bigint }>
  >`SELECT count(*) AS count FROM graphile_worker.jobs WHERE key = ANY(${jobKeys}::text[])`;
  return Number(rows[0]?.count ?? 0);
}

/** When the next expiry sweep is due (the sweep re-queues itself under one job key, see lib/worker/tasks.ts). */
export async function nextExpirySweepAt(): Promise<Date | undefined> {
  const rows = await db().$queryRaw<
    Array<{ run_at: Date }>
  >`SELECT run_at FROM graphile_worker.jobs WHERE key = 'announce-expired-invoices'`;
  return rows[0]?.run_at;
}
