import { env } from '../env';

/**
 * How the worker talks to graphile-worker's tables under load (docs/benchmarks.md, scenario g). Without these,
 * every job costs its own "get job" and "complete job" statements; with them, one statement locks a batch of
 * due jobs into the process (the local queue) and completions made in the same tick are written together.
 * The cost: jobs a killed process had locked wait for the heartbeat's release (lib/worker/heartbeat.ts), and a
 * job whose completion was not yet written when the process died runs again — an attempt may be repeated, which
 * webhooks allow (same webhook-id), never lost.
 */
export const QUEUE_BATCHING = {
  localQueue: { size: Math.max(2, env().WORKER_CONCURRENCY * 2) },
  completeJobBatchDelay: 0,
  failJobBatchDelay: 0,
};
