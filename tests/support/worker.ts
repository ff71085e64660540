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
      ...env,
    },
  });
}

/** Polls `check` until it returns a value (not undefined/false) or the deadline passes. */
export async function eventually<T>(check: () => Promise<T | undefined | false>, timeoutMs = 20_000, what = 'condition'): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
