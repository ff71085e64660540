import { Counter, Gauge, Registry } from 'prom-client';
import { db } from '../db';

/**
 * The process's Prometheus metrics (GET /metrics, docs/operations.md). Counters are this process's; the queue,
 * delivery, watcher and worker figures are read from PostgreSQL at scrape time (one statement), so every web
 * instance reports the same deployment-wide values and no worker needs a port of its own.
 *
 * Kept on globalThis: Next bundles route modules separately, and each bundle must count into the one registry.
 */
export interface AppMetrics {
  registry: Registry;
  httpRequests: Counter<'route' | 'method' | 'status'>;
  /** Reads the deployment-wide figures into their gauges; call before rendering a scrape. */
  refresh(): Promise<void>;
}

const holder = globalThis as unknown as { [key: symbol]: AppMetrics | undefined };
const KEY = Symbol.for('crypto-invoicing.metrics');

interface Snapshot {
  due: number;
  oldest_due_seconds: number | null;
  jobs_due: number;
  deliveries: Record<string, number> | null;
  watchers: Array<[network: string, head: string, scanned: string, lastPass: number, caughtUp: number | null]> | null;
  workers: Array<[processId: string, ageSeconds: number]> | null;
  now: number;
}

/** One round trip for every deployment-wide figure. */
async function readSnapshot(): Promise<Snapshot> {
  const rows = await db().$queryRawUnsafe<Snapshot[]>(`
    SELECT
      (SELECT count(*)::int FROM webhook_deliveries
        WHERE status = 'pending' AND COALESCE(next_attempt_at, created_at) <= now()) AS due,
      (SELECT extract(epoch FROM now() - min(COALESCE(next_attempt_at, created_at)))::float8 FROM webhook_deliveries
        WHERE status = 'pending' AND COALESCE(next_attempt_at, created_at) <= now()) AS oldest_due_seconds,
      (SELECT count(*)::int FROM graphile_worker._private_jobs WHERE run_at <= now() AND locked_at IS NULL) AS jobs_due,
      (SELECT json_object_agg(status, n) FROM (SELECT status, count(*)::int AS n FROM webhook_deliveries GROUP BY status) s) AS deliveries,
      (SELECT json_agg(json_build_array(network, head_block::text, scanned_block::text,
          extract(epoch FROM last_pass_at)::float8, extract(epoch FROM caught_up_at)::float8)) FROM chain_watcher_status) AS watchers,
      (SELECT json_agg(json_build_array(process_id, extract(epoch FROM now() - seen_at)::float8)) FROM worker_heartbeats) AS workers,
      extract(epoch FROM now())::float8 AS now`);
  return rows[0]!;
}

function create(): AppMetrics {
  const registry = new Registry();
  const httpRequests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests answered by this instance, by route template, method and status.',
    labelNames: ['route', 'method', 'status'] as const,
    registers: [registry],
  });

  const up = new Gauge({
    name: 'database_up',
    help: '1 when the scrape could read the database, 0 otherwise.',
    registers: [registry],
  });
  const queueDepth = new Gauge({
    name: 'webhook_deliveries_due',
    help: 'Webhook deliveries due now and not yet delivered.',
    registers: [registry],
  });
  const oldestDue = new Gauge({
    name: 'webhook_oldest_due_delivery_age_seconds',
    help: 'Age of the oldest due webhook delivery (0 when none is due).',
    registers: [registry],
  });
  const jobsDue = new Gauge({
    name: 'queue_jobs_due',
    help: 'Queue jobs due now and not locked by a worker.',
    registers: [registry],
  });
  const deliveries = new Gauge({
    name: 'webhook_deliveries',
    help: 'Webhook deliveries by outcome (pending, succeeded, failed), over the deliveries kept.',
    labelNames: ['outcome'] as const,
    registers: [registry],
  });
  const lagBlocks = new Gauge({
    name: 'chain_watcher_lag_blocks',
    help: 'Blocks between the chain head and the block scanned up to, at the watcher’s last successful pass.',
    labelNames: ['network'] as const,
    registers: [registry],
  });
  const lagSeconds = new Gauge({
    name: 'chain_watcher_lag_seconds',
    help: 'Seconds since the watcher last reached the chain head it saw.',
    labelNames: ['network'] as const,
    registers: [registry],
  });
  const lastPass = new Gauge({
    name: 'chain_watcher_last_pass_timestamp_seconds',
    help: 'Unix time of the watcher’s last successful pass.',
    labelNames: ['network'] as const,
    registers: [registry],
  });
  const workersAlive = new Gauge({
    name: 'worker_processes_alive',
    help: 'Worker processes whose runner beat within WORKER_STALE_AFTER_SECONDS.',
    registers: [registry],
  });
  const heartbeatAge = new Gauge({
    name: 'worker_heartbeat_age_seconds',
    help: 'Seconds since each worker process’s last heartbeat (its runner’s).',
    labelNames: ['process'] as const,
    registers: [registry],
  });

  const staleAfter = Number(process.env.WORKER_STALE_AFTER_SECONDS || 30);
  const refresh = async () => {
    const s = await readSnapshot().catch(() => null);
    up.set(s ? 1 : 0);
    if (!s) return; // the other gauges keep their last values; database_up says why
    queueDepth.set(s.due);
    oldestDue.set(Math.max(0, s.oldest_due_seconds ?? 0));
    jobsDue.set(s.jobs_due);
    for (const outcome of ['pending', 'succeeded', 'failed']) deliveries.set({ outcome }, s.deliveries?.[outcome] ?? 0);
    workersAlive.set((s.workers ?? []).filter(([, age]) => age < staleAfter).length);
    heartbeatAge.reset();
    for (const [processId, age] of s.workers ?? []) heartbeatAge.set({ process: processId }, age);
    for (const [network, head, scanned, lastPassAt, caughtUpAt] of s.watchers ?? []) {
      lagBlocks.set({ network }, Math.max(0, Number(BigInt(head) - BigInt(scanned))));
      lagSeconds.set({ network }, Math.max(0, s.now - (caughtUpAt ?? lastPassAt)));
      lastPass.set({ network }, lastPassAt);
    }
  };
  return { registry, httpRequests, refresh };
}

export function metrics(): AppMetrics {
  holder[KEY] ??= create();
  return holder[KEY]!;
}
