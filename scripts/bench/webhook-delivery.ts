/**
 * Benchmark scenario (g), webhook delivery (docs/webhooks.md): events committed to a workspace with one endpoint on a
 * local receiver, delivered by one worker process (the real scripts/worker.ts). Two phases:
 *
 *   burst   5,000 events committed as fast as the database takes them (transactions of 250): the most the
 *           worker delivers per second (first commit → last receipt) — the throughput goal, ≥ 1,000/s.
 *   steady  5,000 events at a steady 1,000 per second (the throughput goal, in transactions every 50 ms):
 *           p50/p99 from each event's commit to its receipt — the latency goal, p99 ≤ 1 s. (In the burst,
 *           latency only measures the queue the burst itself builds: 5,000 events committed in under a
 *           second wait behind each other whatever the worker does.)
 *
 *   npx tsx scripts/bench/webhook-delivery.ts   (own embedded PostgreSQL; BENCH_G_EVENTS, BENCH_G_RATE,
 *                                               WORKER_CONCURRENCY to change the sizes; BENCH_PROFILE=1 for a
 *                                               CPU profile of the worker in bench/profile-g)
 */
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type pg from 'pg';
import { ensureEmbeddedDatabase, makeTempDir, runningServer } from '../db/embedded';
import { migrate } from '../db/migrate';
import { treeCpuMs } from './proc';
import { startWorker } from '../worker-process';

const EVENTS = Number(process.env.BENCH_G_EVENTS ?? 5000);
const STEADY_RATE = Number(process.env.BENCH_G_RATE ?? 1000);
const BURST_BATCH = 250;
const STEADY_TICK_MS = 50;

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

/** The receiver: the first arrival time of each webhook-id, and a wait for a set of them. */
function startReceiver() {
  const received = new Map<string, number>();
  const waiters: Array<{ missing: Set<string>; resolve: () => void }> = [];
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const id = req.headers['webhook-id'];
      if (typeof id === 'string' && !received.has(id)) {
        received.set(id, performance.now());
        for (const waiter of waiters) if (waiter.missing.delete(id) && waiter.missing.size === 0) waiter.resolve();
      }
      res.writeHead(204).end();
    });
  });
  const arrivals = (ids: string[], timeoutMs: number) =>
    new Promise<void>((resolve) => {
      const missing = new Set(ids.filter((id) => !received.has(id)));
      if (missing.size === 0) return resolve();
      const timer = setTimeout(resolve, timeoutMs);
      waiters.push({ missing, resolve: () => (clearTimeout(timer), resolve()) });
    });
  return { server, received, arrivals };
}

/** Commits `count` events in transactions of `batch`, one every `everyMs` (0: back to back); returns each id's commit time. */
async function commitEvents(pool: pg.Pool, count: number, batch: number, everyMs: number): Promise<Map<string, number>> {
  const committedAt = new Map<string, number>();
  const started = performance.now();
  for (let offset = 0, tick = 0; offset < count; offset += batch, tick += 1) {
    if (everyMs > 0) await sleep(Math.max(0, started + tick * everyMs - performance.now()));
    const { rows } = await pool.query<{ id: string }>(
      `INSERT INTO events (id, workspace_id, environment, type, snapshot, created_at)
       SELECT 'evt_' || substr(md5(random()::text || clock_timestamp()::text || i), 1, 24), 'ws_bench_g', 'test', 'payment.unmatched',
              json_build_object('object', 'payment', 'n', $1::int + i), now()
         FROM generate_series(1, $2::int) i RETURNING id`,
      [offset, Math.min(batch, count - offset)],
    );
    const at = performance.now();
    for (const row of rows) committedAt.set(row.id, at);
  }
  return committedAt;
}

function report(name: string, committedAt: Map<string, number>, received: Map<string, number>) {
  const latencies: number[] = [];
  let first = Infinity;
  let last = 0;
  let lastCommit = 0;
  for (const [id, at] of committedAt) {
    first = Math.min(first, at);
    lastCommit = Math.max(lastCommit, at);
    const arrival = received.get(id);
    if (arrival === undefined) continue;
    latencies.push(arrival - at);
    last = Math.max(last, arrival);
  }
  latencies.sort((a, b) => a - b);
  const rate = latencies.length / ((last - first) / 1000);
  return {
    name,
    delivered: latencies.length,
    rate,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    commitSeconds: (lastCommit - first) / 1000,
    drainSeconds: (last - lastCommit) / 1000,
  };
}

async function main() {
  const dir = makeTempDir('bench-g-');
  const database = await ensureEmbeddedDatabase({ dataDir: path.join(dir, 'pg'), port: 0, database: 'bench_g', verbose: false });
  const receiver = startReceiver();
  await new Promise<void>((resolve) => receiver.server.listen(0, '127.0.0.1', resolve));
  const receiverUrl = `http://127.0.0.1:${(receiver.server.address() as AddressInfo).port}/hooks`;
  const key = randomBytes(32).toString('base64url');
  Object.assign(process.env, { DATABASE_URL: database.url, WEBHOOK_ENCRYPTION_KEY: key });
  let worker: Awaited<ReturnType<typeof startWorker>> | undefined;
  try {
    await migrate(database.url, { quiet: true });
    const { durablePool, disconnectDb } = await import('../../lib/db');
    const { createWebhookEndpoint } = await import('../../lib/webhooks/endpoints');
    const { env } = await import('../../lib/env');
    const pool = durablePool();
    await pool.query(`INSERT INTO workspaces (id, name, plan) VALUES ('ws_bench_g', 'bench g', 'Business')`);
    // A test endpoint: the bench's receiver is plain http on loopback (live endpoints need https).
    await createWebhookEndpoint('ws_bench_g', { url: receiverUrl, environment: 'test', event_types: [] }, { allowPrivateNetworks: true });
    worker = await startWorker({
      databaseUrl: database.url,
      env: { WEBHOOK_ENCRYPTION_KEY: key, WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' },
      nodeArgs: process.env.BENCH_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve('bench/profile-g')}`] : [],
      stdio: 'pipe',
    });

    // CPU per event, from /proc: the worker process, and PostgreSQL's whole process tree (the commits included).
    const workerPid = worker.child.pid ?? 0;
    const postmasterPid = (await runningServer(database.dataDir))?.pid ?? 0;
    const measured = async (run: () => Promise<Map<string, number>>) => {
      const before = { worker: treeCpuMs(workerPid), db: treeCpuMs(postmasterPid) };
      const committed = await run();
      await receiver.arrivals([...committed.keys()], 120_000);
      const cpu = { worker: (treeCpuMs(workerPid) - before.worker) / committed.size, db: (treeCpuMs(postmasterPid) - before.db) / committed.size };
      return { committed, cpu };
    };
    const burst = await measured(() => commitEvents(pool, EVENTS, BURST_BATCH, 0));
    const perTick = Math.max(1, Math.round((STEADY_RATE * STEADY_TICK_MS) / 1000));
    const steady = await measured(() => commitEvents(pool, EVENTS, perTick, STEADY_TICK_MS));

    const phases = [
      { ...report('burst', burst.committed, receiver.received), cpu: burst.cpu },
      { ...report(`steady ${STEADY_RATE}/s`, steady.committed, receiver.received), cpu: steady.cpu },
    ];
    console.log(`\n(g) webhook delivery — ${EVENTS} events per phase, one worker (concurrency ${env().WORKER_CONCURRENCY}), local receiver`);
    console.log('  phase          delivered   deliveries/s   p50 ms   p99 ms   commits s   drained s   worker CPU ms/event   db CPU ms/event');
    for (const phase of phases) {
      const incomplete = phase.delivered < EVENTS ? '  INCOMPLETE after 120 s' : '';
      console.log(
        `  ${phase.name.padEnd(14)} ${String(phase.delivered).padStart(9)}   ${phase.rate.toFixed(0).padStart(12)}   ${phase.p50.toFixed(0).padStart(6)}   ${phase.p99.toFixed(0).padStart(6)}   ${phase.commitSeconds.toFixed(2).padStart(9)}   ${phase.drainSeconds.toFixed(2).padStart(9)}   ${phase.cpu.worker.toFixed(3).padStart(19)}   ${phase.cpu.db.toFixed(3).padStart(15)}${incomplete}`,
      );
    }
    const [b, s] = phases as [(typeof phases)[number], (typeof phases)[number]];
    console.log(`  goals: burst ≥ 1000 deliveries/s → ${(b.rate / 1000).toFixed(2)}×; steady p99 ≤ 1000 ms → ${(s.p99 / 1000).toFixed(2)}× of the limit`);
    await disconnectDb();
  } finally {
    await worker?.stop();
    receiver.server.close();
    await database.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
