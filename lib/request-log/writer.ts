import { env } from '../env';
import { meteringSql, runStatement } from '../db';
import { REQUEST_LOG_RETENTION_DAYS, type RequestLogFields } from './types';

/**
 * The request log's writer (docs/api.md): requests are queued in memory and written in batches by a timer, never
 * on the request's own path, so a slow or unavailable database never delays an API answer.
 *
 * Bounds and losses, decided here (docs/api.md "Request log"):
 *  - the queue holds at most REQUEST_LOG_MAX_QUEUE entries; beyond that new entries are dropped and counted
 *    (a warning is logged with the count), so memory stays bounded when the database is away;
 *  - entries are flushed every REQUEST_LOG_FLUSH_MS (default 250 ms), up to 1,000 per INSERT; a failed flush
 *    puts its batch back (still bounded) and is retried on the next tick;
 *  - a crash or kill loses what was queued: at most one flush interval of requests. Everything written is in
 *    PostgreSQL, so a restart loses nothing else, and starting up never waits for the log;
 *  - rows older than 7 days are deleted by the writer itself, at most once an hour per process, in bounded batches.
 * Never the key's secret, the headers or the body: only what RequestLogEntry holds.
 */
export interface RequestLogEntry extends RequestLogFields {
  workspaceId: string;
  at: Date;
}

const BATCH = 1000;
const PRUNE_EVERY_MS = 60 * 60 * 1000;

interface WriterState {
  queue: RequestLogEntry[];
  dropped: number;
  timer: NodeJS.Timeout | null;
  flushing: Promise<void> | null;
  lastPrune: number;
}

// One writer per process; Next's dev server reloads modules, so it lives on globalThis.
const holder = globalThis as unknown as { requestLogWriter?: WriterState };
function state(): WriterState {
  holder.requestLogWriter ??= { queue: [], dropped: 0, timer: null, flushing: null, lastPrune: 0 };
  return holder.requestLogWriter;
}

/** Queues one entry; returns at once. */
export function logRequest(entry: RequestLogEntry): void {
  const config = env();
  if (!config.REQUEST_LOG_ENABLED) return;
  const writer = state();
  if (writer.queue.length >= config.REQUEST_LOG_MAX_QUEUE) {
    writer.dropped++;
    return;
  }
  writer.queue.push(entry);
  if (!writer.timer) {
    writer.timer = setInterval(() => void flushRequestLog(), config.REQUEST_LOG_FLUSH_MS);
    writer.timer.unref();
  }
}

/** Writes everything queued so far (tests call it to avoid waiting for the timer). */
export async function flushRequestLog(): Promise<void> {
  const writer = state();
  if (writer.flushing) return writer.flushing;
  const run = async () => {
    while (writer.queue.length > 0) {
      const batch = writer.queue.splice(0, BATCH);
      try {
        await insertBatch(batch);
      } catch (error) {
        // Put the batch back in front (bounded: the oldest beyond the cap are dropped) and retry next tick.
        const room = Math.max(0, env().REQUEST_LOG_MAX_QUEUE - writer.queue.length);
        writer.dropped += batch.length - Math.min(room, batch.length);
        writer.queue.unshift(...batch.slice(batch.length - Math.min(room, batch.length)));
        console.error(
          JSON.stringify({
            level: 'warn',
            event: 'request_log_flush_failed',
            queued: writer.queue.length,
            message: error instanceof Error ? error.message.slice(0, 200) : String(error),
          }),
        );
        return;
      }
    }
    if (writer.dropped > 0) {
      console.error(JSON.stringify({ level: 'warn', event: 'request_log_dropped', count: writer.dropped }));
      writer.dropped = 0;
    }
    if (Date.now() - writer.lastPrune > PRUNE_EVERY_MS) {
      writer.lastPrune = Date.now();
      await pruneRequestLog().catch(() => undefined);
    }
  };
  // Cleared in a callback (always asynchronous), so a run that finishes at once cannot leave a stale promise.
  writer.flushing = run().finally(() => {
    writer.flushing = null;
  });
  return writer.flushing;
}

async function insertBatch(batch: RequestLogEntry[]): Promise<void> {
  const column = <K extends keyof RequestLogEntry>(name: K) => batch.map((entry) => entry[name]);
  await runStatement(
    meteringSql(),
    `INSERT INTO request_log (workspace_id, environment, key_id, key_prefix, method, path, status, duration_ms, request_id, idempotency_key, ip, created_at)
     SELECT * FROM unnest($1::text[], $2::"Environment"[], $3::int[], $4::text[], $5::text[], $6::text[], $7::int[], $8::int[], $9::text[], $10::text[], $11::text[], $12::timestamptz[])`,
    [
      column('workspaceId'),
      column('environment'),
      column('keyId'),
      column('keyPrefix'),
      column('method'),
      column('path'),
      column('status'),
      column('durationMs'),
      column('requestId'),
      column('idempotencyKey'),
      column('ip'),
      batch.map((entry) => entry.at.toISOString()),
    ],
  );
}

/** Deletes rows older than 7 days, 10,000 at a time (bounded work per call). Returns how many went. */
export async function pruneRequestLog(): Promise<number> {
  let total = 0;
  for (let round = 0; round < 100; round++) {
    const rows = await runStatement<{ n: number }>(
      meteringSql(),
      `WITH gone AS (
         DELETE FROM request_log WHERE id IN (
           SELECT id FROM request_log WHERE created_at < now() - interval '${REQUEST_LOG_RETENTION_DAYS} days' ORDER BY created_at LIMIT 10000)
         RETURNING 1)
       SELECT count(*)::int AS n FROM gone`,
      [],
    );
    const n = rows[0]?.n ?? 0;
    total += n;
    if (n < 10000) break;
  }
  return total;
}
