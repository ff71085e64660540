import { env } from '../env';

/**
 * How the worker talks to graphile-worker's tables under load (docs/benchmarks.md, scenario g). Without the
 * local queue, every job costs its own "get job" statement; with it, one statement locks a batch of due jobs
 * into the process. A fetch that fails (the database restarting) is retried on the next poll.
 *
 * Completions are NOT batched (completeJobBatchDelay / failJobBatchDelay unset): graphile-worker 0.17.3's
 * batcher gives up on its first error and shuts the worker pool down ("Failed to fail jobs … shutting
 * down"), so a database restart stopped the worker. One completion per job goes through the library's retrying
 * path instead, which lib/worker/retryable.ts extends to lost connections. The cost (docs/benchmarks.md, g):
 * see the measurement there.
 *
 * Jobs a killed process had locked wait for the heartbeat's release (lib/worker/heartbeat.ts), and a job
 * whose completion was not yet written when the process died runs again — an attempt may be repeated, which
 * webhooks allow (same webhook-id), never lost.
 */
export const QUEUE_BATCHING = {
  localQueue: { size: Math.max(2, env().WORKER_CONCURRENCY * 2) },
};
