// `npm run worker`: the background worker — webhook deliveries, invoice.expired events, pruning (and the chain
// watchers when configured). `npm start` runs one beside the web server. Any number may run against one
// database: the queue (graphile-worker) gives each job to one worker at a time.
import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { makeWorkerUtils, run, type Runner, type WorkerEvents } from 'graphile-worker';
import { startChainWatchers } from '../lib/chain';
import { disconnectDb } from '../lib/db';
import { env } from '../lib/env';
import { closeAgents } from '../lib/webhooks/agents';
import { beat, forget, releaseOwnJobs, releaseStaleWorkers } from '../lib/worker/heartbeat';
import { queueLogger } from '../lib/worker/queue';
import { QUEUE_BATCHING } from '../lib/worker/batching';
import { retryCompletionsOnLostConnections } from '../lib/worker/retryable';
import { CRONTAB, scheduleExpirySweep, TASKS } from '../lib/worker/tasks';
import { resolveDatabaseUrl } from './db/embedded';
import { migrate } from './db/migrate';

const log = (event: string, fields: Record<string, unknown> = {}, level = 'info') =>
  console.error(JSON.stringify({ level, event, ...fields }));
const message = (error: unknown) => (error instanceof Error ? error.message : String(error)).slice(0, 500);

// A promise nobody awaited that failed (e.g. a job completion that ran out of retries) leaves the queue in an
// unknown state: exit non-zero, loudly, so the supervisor restarts the worker and the heartbeat releases its jobs.
process.on('unhandledRejection', (error) => {
  log('worker_unhandled_rejection', { message: message(error) }, 'error');
  process.exit(1);
});

async function main() {
  const database = await resolveDatabaseUrl();
  process.env.DATABASE_URL = database.url;
  if (process.env.WORKER_SKIP_MIGRATE !== 'true') await migrate(database.url, { quiet: true });

  retryCompletionsOnLostConnections();
  const processId = `${process.pid}-${randomUUID()}`;
  const workerIds = new Set<string>();
  // Listening before run() starts the pool: the pool's id (what the queue's locks record) reaches the heartbeat.
  const events = new EventEmitter() as WorkerEvents;
  events.on('pool:create', ({ workerPool }) => workerIds.add(workerPool.id));
  const runner: Runner = await run({
    events,
    connectionString: database.url,
    concurrency: env().WORKER_CONCURRENCY,
    // Jobs reach workers through the local queue and complete in batches (lib/worker/batching.ts): a few
    // connections serve any concurrency.
    maxPoolSize: 16,
    taskList: TASKS,
    crontab: CRONTAB,
    noHandleSignals: true,
    pollInterval: 1000,
    logger: queueLogger,
    preset: { worker: QUEUE_BATCHING },
  });

  // Start the expiry sweep's chain (a no-op when one is already queued: same job key).
  const utils = await makeWorkerUtils({ connectionString: database.url, logger: queueLogger });
  await scheduleExpirySweep(utils.addJob, 0);
  await utils.release();

  // The heartbeat belongs to the runner: it beats only while the runner runs, so a process whose runner stopped
  // looks dead to the others (and exits below) instead of holding its jobs' locks for graphile's 4 hours.
  let runnerRunning = true;
  const runnerStopped = runner.promise.then(
    () => null,
    (error: unknown) => error,
  );
  void runnerStopped.then(() => {
    runnerRunning = false;
  });
  const heartbeatMs = Math.max(1000, (env().WORKER_STALE_AFTER_SECONDS * 1000) / 4);
  const heartbeat = setInterval(() => {
    if (!runnerRunning) return;
    void beat(processId, [...workerIds])
      .then(() => releaseStaleWorkers(env().WORKER_STALE_AFTER_SECONDS))
      .then((released) => released.length && log('worker_locks_released', { workers: released }))
      .catch((error: unknown) =>
        log('worker_heartbeat_failed', { message: error instanceof Error ? error.message : String(error) }),
      );
  }, heartbeatMs);
  await beat(processId, [...workerIds]);
  log('worker_ready', { concurrency: env().WORKER_CONCURRENCY, pid: process.pid });

  // Chain watchers (docs/settlement.md): one loop per network with an RPC_URL_*; each is the only watcher of its network
  // across every worker (an advisory lock; the others stand by and take over when it dies).
  const watchers = new AbortController();
  const watching = startChainWatchers(watchers.signal);

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log('worker_stopping', { signal });
    clearInterval(heartbeat);
    watchers.abort();
    await watching;
    await runner.stop().catch(() => undefined);
    closeAgents();
    await forget(processId).catch(() => undefined);
    await disconnectDb();
    await database.release();
    process.exit(0);
  };
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => void stop(signal));

  const error = await runnerStopped;
  if (stopping) return;
  // The runner stopped on its own (its pool exited with an error): never keep a process that looks alive and
  // does no work. Release our jobs now if the database answers (else the others do once our heartbeat is stale).
  stopping = true;
  clearInterval(heartbeat);
  log('worker_runner_stopped', { message: error === null ? 'runner stopped' : message(error) }, 'error');
  watchers.abort();
  await releaseOwnJobs(processId, [...workerIds]).catch((failure: unknown) =>
    log('worker_release_failed', { message: message(failure) }, 'warn'),
  );
  process.exit(1);
}

main().catch((error: unknown) => {
  console.error(`[worker] ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
