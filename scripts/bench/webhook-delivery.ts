/**
 * Benchmark scenario (g), webhook delivery (SPEC §6): 5,000 events committed to a workspace with one endpoint on
 * a local receiver, delivered by one worker process (the real scripts/worker.ts). Prints deliveries per second
 * (first commit → last receipt) and the p50/p99 latency from each event's commit to its receipt.
 *
 *   npx tsx scripts/bench/webhook-delivery.ts   (own embedded PostgreSQL; BENCH_G_EVENTS, BENCH_G_BATCH,
 *                                               WORKER_CONCURRENCY to change the sizes)
 */
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { ensureEmbeddedDatabase, makeTempDir } from '../db/embedded';
import { migrate } from '../db/migrate';
import { startWorker } from '../worker-process';

const EVENTS = Number(process.env.BENCH_G_EVENTS ?? 5000);
const BATCH = Number(process.env.BENCH_G_BATCH ?? 250);

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

async function main() {
  const dir = makeTempDir('bench-g-');
  const database = await ensureEmbeddedDatabase({ dataDir: path.join(dir, 'pg'), port: 0, database: 'bench_g', verbose: false });
  const received = new Map<string, number>();
  let allArrived: () => void = () => undefined;
  const done = new Promise<void>((resolve) => (allArrived = resolve));
  const receiver = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const id = req.headers['webhook-id'];
      if (typeof id === 'string' && !received.has(id)) received.set(id, performance.now());
      res.writeHead(204).end();
      if (received.size >= EVENTS) allArrived();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
  const key = randomBytes(32).toString('base64url');
  Object.assign(process.env, { DATABASE_URL: database.url, WEBHOOK_ENCRYPTION_KEY: key });
  let worker: Awaited<ReturnType<typeof startWorker>> | undefined;
  try {
    await migrate(database.url, { quiet: true });
    const { durablePool, disconnectDb } = await import('../../lib/db');
    const { createWebhookEndpoint } = await import('../../lib/webhooks/endpoints');
    const pool = durablePool();
    await pool.query(`INSERT INTO workspaces (id, name, plan) VALUES ('ws_bench_g', 'bench g', 'Business')`);
    // A test endpoint: the bench's receiver is plain http on loopback (live endpoints need https).
    await createWebhookEndpoint('ws_bench_g', { url: receiverUrl, environment: 'test', event_types: [] }, { allowPrivateNetworks: true });
    worker = await startWorker({
      databaseUrl: database.url,
      env: {
        WEBHOOK_ENCRYPTION_KEY: key,
        WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
      },
      // BENCH_PROFILE=1: a V8 CPU profile of the worker into bench/profile-g (summarise: scripts/bench/profile-summary.ts).
      nodeArgs: process.env.BENCH_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve('bench/profile-g')}`] : [],
      stdio: 'pipe',
    });

    // Events in batches (one transaction each, like busy API traffic); each event's commit time is its batch's.
    const committedAt = new Map<string, number>();
    const started = performance.now();
    for (let offset = 0; offset < EVENTS; offset += BATCH) {
      const count = Math.min(BATCH, EVENTS - offset);
      const { rows } = await pool.query<{ id: string }>(
        `INSERT INTO events (id, workspace_id, environment, type, snapshot, created_at)
         SELECT 'evt_' || substr(md5(random()::text || clock_timestamp()::text || i), 1, 24), 'ws_bench_g', 'test', 'payment.unmatched',
                json_build_object('object', 'payment', 'n', $1::int + i), now()
           FROM generate_series(1, $2::int) i RETURNING id`,
        [offset, count],
      );
      const at = performance.now();
      for (const row of rows) committedAt.set(row.id, at);
    }
    const allCommitted = performance.now();
    const timeout = setTimeout(() => allArrived(), 120_000);
    await done;
    clearTimeout(timeout);
    const finished = performance.now();

    const latencies = [...committedAt].flatMap(([id, at]) => {
      const arrival = received.get(id);
      return arrival === undefined ? [] : [arrival - at];
    });
    latencies.sort((a, b) => a - b);
    const seconds = (Math.max(...received.values()) - started) / 1000;
    const rate = received.size / seconds;
    const p50 = percentile(latencies, 50);
    const p99 = percentile(latencies, 99);
    console.log(`\n(g) webhook delivery — ${EVENTS} events, one worker (concurrency ${process.env.WORKER_CONCURRENCY ?? 32}), local receiver`);
    console.log(`  delivered          ${received.size} / ${EVENTS}${received.size < EVENTS ? '  (INCOMPLETE after 120 s)' : ''}`);
    console.log(`  deliveries/s       ${rate.toFixed(0)}   (goal ≥ 1000: ${(rate / 1000).toFixed(2)}×)`);
    console.log(`  commit → receipt   p50 ${p50.toFixed(0)} ms, p99 ${p99.toFixed(0)} ms   (goal p99 ≤ 1000 ms: ${(p99 / 1000).toFixed(2)}×)`);
    console.log(`  commits            ${((allCommitted - started) / 1000).toFixed(1)} s to commit all ${EVENTS} events (with their deliveries and jobs), ${received.size && ((Math.max(...received.values()) - allCommitted) / 1000).toFixed(1)} s more to deliver the rest`);
    console.log(`  wall time          ${((finished - started) / 1000).toFixed(1)} s`);
    await disconnectDb();
  } finally {
    await worker?.stop();
    receiver.close();
    await database.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
