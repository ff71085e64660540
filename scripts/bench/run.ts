/**
 * `npm run bench`: production build, own embedded PostgreSQL, seeded data, autocannon load from a separate
 * process per scenario, one table of figures with each scenario's throughput as a ratio of the baseline,
 * then correctness checks (usage counted exactly, no 5xx), then scenario (i): two app servers on one database
 * (scripts/bench/two-servers.ts: throughput, exact usage and shared limits), then (g) webhook delivery and
 * (h) the chain watcher (scripts/bench/webhook-delivery.ts, chain-watcher.ts). Stops everything it started.
 *
 * The machines are shared and noisy (±20% between runs, more within one), so every scenario alternates in
 * short rounds with baseline runs of its own ("paired baseline") and its ratio is taken to those; the server's
 * and the database's CPU time per request are reported too, as the cost figures that move least with the noise.
 *
 * Each paired baseline round is as long as the scenario's round (BENCH_BASELINE defaults to BENCH_DURATION). The
 * server's major GCs come every ≈ 3–5 s and each one lifts ≈ 2.5 % of a round's latencies, so a p99 taken over a
 * shorter round misses them more often: with 2 s baseline rounds against 4 s scenario rounds, the baseline's p99
 * was usually a GC-free one and the scenario's never (docs/benchmarks.md, fourth round).
 *
 * Env: BENCH_DURATION (s of each measured scenario, default 12), BENCH_WARMUP (2), BENCH_BASELINE (s of paired
 * baseline per scenario, as BENCH_DURATION), BENCH_ROUNDS (3),
 * BENCH_CONNECTIONS (50), BENCH_INVOICES (100000), BENCH_EXACT_REQUESTS (2000), BENCH_ONLY (e.g. "c,d1"; "i" for
 * scenario (i), "g" and "h" for webhook delivery and the chain watcher; without BENCH_ONLY all of them run),
 * BENCH_PROFILE=dir (V8 CPU profile of the server; summarise with scripts/bench/profile-summary.ts),
 * BENCH_NODE_ARGS="--flag …" (extra node/V8 flags for the server, e.g. GC settings to compare),
 * BENCH_TRACE=dir (every load run writes its responses' end times and latencies there, scripts/bench/load.mjs),
 * BENCH_SERVER_ENV="NAME=value …" (extra server configuration, to compare settings run against run by ratio,
 * e.g. METERING_DURABLE_COMMIT=true or DATABASE_POOL_SIZE=20),
 * BENCH_LIMITS_COMPARE=0 (skip the paired with/without comparison of the token buckets and request log on b, c, f).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ensureEmbeddedDatabase, freePort, makeTempDir, runningServer, type EmbeddedDatabase } from '../db/embedded';
import { migrate } from '../db/migrate';
import { ensureBuild, PROJECT_ROOT, startNext, type NextServer } from '../next-app';
import { sampleRss, treeCpuMs } from './proc';
import { printTwoServers, settledUsage, TWO_SERVER_ENV, twoServers, type TwoServerResult } from './two-servers';
import { markdownTable, rows } from './report';
import { scenarios, type LoadConfig, type Scenario } from './scenarios';
import { chainSettings, startLocalChain, type LocalChain } from '../chain/local-chain';

const DURATION_S = Number(process.env.BENCH_DURATION ?? 12);
const WARMUP_S = Number(process.env.BENCH_WARMUP ?? 2);
const BASELINE_S = Number(process.env.BENCH_BASELINE ?? DURATION_S);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const INVOICES = Number(process.env.BENCH_INVOICES ?? 100_000);
// Requests per scenario of the exact usage check (every response awaited).
const EXACT_REQUESTS = Number(process.env.BENCH_EXACT_REQUESTS ?? 2000);
// Limits raised through configuration (lib/env.ts), so the full request path — limit checks included — is
// measured rather than 429s.
const RAISED_LIMITS = {
  PLAN_BUSINESS_MONTHLY_LIMIT: '1000000000',
  PLAN_BUSINESS_RATE_LIMIT: '1000000',
  PLAN_DEVELOPER_MONTHLY_LIMIT: '1000000000',
  PLAN_DEVELOPER_RATE_LIMIT: '1000000',
};

/** BENCH_SERVER_ENV="A=1 B=2" → { A: '1', B: '2' }. */
function serverEnvOverrides(): Record<string, string> {
  const pairs = (process.env.BENCH_SERVER_ENV ?? '').split(/\s+/).filter(Boolean);
  return Object.fromEntries(pairs.map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]));
}

interface LoadResult {
  requestsPerSecond: number;
  /** Requests sent. When a timed run ends, autocannon destroys its sockets: those still in flight may or may not have reached the server. */
  sent: number;
  /** Responses received (sent − completed were in flight at the end). */
  completed: number;
  ok2xx: number;
  p50: number;
  p99: number;
  /** The median round's p99, for comparison with earlier runs (p99 is now over all the rounds' requests). */
  p99MedianRound?: number;
  /** [ms, responses]: every response's latency, rounded up to the millisecond (scripts/bench/load.mjs). */
  latencyHistogram?: Array<[number, number]>;
  non2xx: number;
  status5xx: number;
  errors: number;
  timeouts: number;
}

export interface Measured extends Scenario, LoadResult {
  ratio: number;
  pairedBaseline: LoadResult | null;
  /** Requests of this scenario sent to the API (warm-up and measured run), and of those, responses received. */
  sentToApi: number;
  completedByApi: number;
  rssMiB: number;
  serverCpuMsPerRequest: number;
  dbCpuMsPerRequest: number;
}

const running = new Set<ChildProcess>();

// The "without" server of the comparison: no per-second limit (no bucket writes) and no request log.
const WITHOUT_LIMITS_AND_LOG = { PLAN_BUSINESS_RATE_LIMIT: '0', PLAN_DEVELOPER_RATE_LIMIT: '0', REQUEST_LOG_ENABLED: 'false' };
const COMPARED = ['b', 'c', 'f'];

export interface LimitsComparison {
  scenario: string;
  withRps: number;
  withoutRps: number;
  ratio: number;
  withServerCpuMsPerRequest: number;
  withoutServerCpuMsPerRequest: number;
}

/**
 * Rounds of one load as one result: throughput over the whole time, p50 the mean of the rounds' weighted by
 * requests, p99 over ALL the rounds' responses (their latency histograms merged).
 *
 * Why not the median round's p99, as before: the server's mark-compact comes every ≈ 3.5–5 s and lifts ≈ 2.5 %
 * of a 4 s round's requests, so a round's p99 was decided by whether that round happened to have one. Over all
 * rounds each side includes its GCs in proportion to how often it has them. (That did not close the gap: the
 * bare route makes half the garbage, so fewer than 1 % of its requests meet a mark-compact, and more than 1 % of
 * the heavier routes' do — docs/benchmarks.md, fifth round.) One stall of the shared machine still cannot decide
 * the figure alone: it lifts well under 1 % of 12 s of requests.
 */
function combine(parts: LoadResult[]): LoadResult {
  const sum = (pick: (r: LoadResult) => number) => parts.reduce((total, r) => total + pick(r), 0);
  const sent = sum((r) => r.sent);
  const p99MedianRound = parts.map((r) => r.p99).sort((a, b) => a - b)[Math.floor(parts.length / 2)]!;
  const merged = parts.every((r) => r.latencyHistogram) ? percentile(parts.flatMap((r) => r.latencyHistogram!), 0.99) : null;
  return {
    p99MedianRound,
    requestsPerSecond: sum((r) => r.requestsPerSecond) / parts.length,
    sent,
    completed: sum((r) => r.completed),
    ok2xx: sum((r) => r.ok2xx),
    p50: Math.round(sum((r) => r.p50 * r.sent) / Math.max(sent, 1)),
    p99: merged ?? p99MedianRound,
    non2xx: sum((r) => r.non2xx),
    status5xx: sum((r) => r.status5xx),
    errors: sum((r) => r.errors),
    timeouts: sum((r) => r.timeouts),
  };
}

/** The latency at or below which `fraction` of the responses in these [ms, count] buckets fall. */
function percentile(buckets: Array<[number, number]>, fraction: number): number | null {
  const counts = new Map<number, number>();
  for (const [ms, count] of buckets) counts.set(ms, (counts.get(ms) ?? 0) + count);
  const sorted = [...counts].sort((a, b) => a[0] - b[0]);
  const total = sorted.reduce((sum, [, count]) => sum + count, 0);
  if (total === 0) return null;
  let seen = 0;
  for (const [ms, count] of sorted) {
    seen += count;
    if (seen >= fraction * total) return ms;
  }
  return sorted[sorted.length - 1]![0];
}

/** One autocannon process: for `duration` seconds, or for exactly `amount` requests with every response awaited. */
function runLoad(baseUrl: string, config: LoadConfig, length: { duration: number } | { amount: number }, connections = CONNECTIONS): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const input = JSON.stringify({ url: baseUrl, connections, ...length, ...config });
    const child = spawn(process.execPath, [path.join(PROJECT_ROOT, 'scripts/bench/load.mjs'), input], { stdio: ['ignore', 'pipe', 'inherit'] });
    running.add(child);
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.on('error', reject);
    child.on('exit', (code) => {
      running.delete(child);
      if (code === 0) resolve(JSON.parse(out) as LoadResult);
      else reject(new Error(`load generator exited ${code}`));
    });
  });
}

async function main() {
  const started = Date.now();
  if (process.env.BENCH_TRACE) mkdirSync(process.env.BENCH_TRACE, { recursive: true });
  const tempDir = makeTempDir('invoicing-bench-');
  let database: EmbeddedDatabase | undefined;
  let server: NextServer | undefined;
  let without: NextServer | undefined;
  let chain: LocalChain | undefined;
  let cleaned: Promise<void> | undefined;
  const cleanup = () =>
    (cleaned ??= (async () => {
      for (const child of running) child.kill('SIGTERM');
      await server?.stop().catch(() => undefined);
      await without?.stop().catch(() => undefined);
      await database?.stop().catch(() => undefined);
      await chain?.stop().catch(() => undefined);
      rmSync(tempDir, { recursive: true, force: true });
    })());
  process.once('SIGINT', () => void cleanup().then(() => process.exit(130)));
  process.once('SIGTERM', () => void cleanup().then(() => process.exit(143)));

  try {
    database = await ensureEmbeddedDatabase({ dataDir: path.join(tempDir, 'postgres'), port: 0, database: 'invoicing_bench', verbose: false });
    await migrate(database.url, { quiet: true });
    await ensureBuild({ stdio: 'stderr' });
    process.env.DATABASE_URL = database.url;
    Object.assign(process.env, RAISED_LIMITS);

    console.error(`[bench] seeding ${INVOICES.toLocaleString('en')} invoices and 103 keys…`);
    const seedStarted = Date.now();
    const { seed } = await import('./seed');
    const data = await seed(INVOICES);
    const { disconnectDb } = await import('../../lib/db');
    console.error(`[bench] seeded in ${((Date.now() - seedStarted) / 1000).toFixed(0)} s`);

    // BENCH_NODE_ARGS go to every server the bench starts, like BENCH_SERVER_ENV; the profile only to the measured one.
    const serverNodeArgs = (process.env.BENCH_NODE_ARGS ?? '').split(/\s+/).filter(Boolean);
    const nodeArgs = [...(process.env.BENCH_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(process.env.BENCH_PROFILE)}`] : []), ...serverNodeArgs];
    const serverEnv = serverEnvOverrides();
    // (e2) prices invoices in USD: the server reads a local chain's mock Chainlink feeds (docs/rates.md).
    const onlyIds = process.env.BENCH_ONLY?.split(',');
    if (!onlyIds || onlyIds.includes('e2')) chain = await startLocalChain({ port: await freePort() });
    const rateEnv = chain ? chainSettings(chain, 'ethereum') : {};
    server = await startNext({ port: await freePort(), databaseUrl: database.url, env: { ...RAISED_LIMITS, ...rateEnv, ...serverEnv }, stdio: 'pipe', nodeArgs });
    const serverPid = server.child.pid ?? 0;
    const postmasterPid = (await runningServer(database.dataDir))?.pid ?? 0;

    const all = scenarios(data);
    const baseline = all[0]!;
    const only = process.env.BENCH_ONLY?.split(',');
    const results: Measured[] = [];
    for (const scenario of all.filter((s) => s === baseline || !only || only.includes(s.id))) {
      const warmup = await runLoad(server.baseUrl, scenario, { duration: WARMUP_S });
      // Baseline and scenario alternate in short rounds, so a change in the machine's load hits both alike.
      const rounds = scenario === baseline ? 1 : ROUNDS;
      const baselineParts: LoadResult[] = [];
      const parts: LoadResult[] = [];
      let serverCpu = 0;
      let dbCpu = 0;
      const rss = sampleRss(serverPid);
      for (let round = 0; round < rounds; round++) {
        if (scenario !== baseline) baselineParts.push(await runLoad(server.baseUrl, baseline, { duration: BASELINE_S / rounds }));
        const before = { server: treeCpuMs(serverPid), db: treeCpuMs(postmasterPid) };
        parts.push(await runLoad(server.baseUrl, scenario, { duration: DURATION_S / rounds }));
        serverCpu += treeCpuMs(serverPid) - before.server;
        dbCpu += treeCpuMs(postmasterPid) - before.db;
      }
      const measured = combine(parts);
      const pairedBaseline = baselineParts.length ? combine(baselineParts) : null;
      const requests = Math.max(measured.sent, 1);
      results.push({
        ...scenario,
        ...measured,
        ratio: pairedBaseline ? measured.requestsPerSecond / pairedBaseline.requestsPerSecond : 1,
        pairedBaseline,
        sentToApi: warmup.sent + measured.sent,
        completedByApi: warmup.completed + measured.completed,
        rssMiB: rss.stop(),
        serverCpuMsPerRequest: serverCpu / requests,
        dbCpuMsPerRequest: dbCpu / requests,
      });
      const ratio = results.at(-1)!.ratio.toFixed(2);
      const medians = measured.p99MedianRound === undefined ? '' : `; median round's p99 ${measured.p99MedianRound} ms, baseline's ${pairedBaseline?.p99MedianRound ?? '-'} ms`;
      console.error(
        `[bench] ${scenario.id} ${scenario.name}: ${Math.round(measured.requestsPerSecond)} req/s (${ratio} of baseline), p99 ${measured.p99} ms, paired baseline's ${pairedBaseline?.p99 ?? '-'} ms${medians}`,
      );
    }

    // Correctness, with raised limits: every authenticated request that reached the API is counted exactly once,
    // in its own workspace (monthly) and for its own key (daily); and no response is a 5xx.
    // 1. The timed runs: every completed request counted, none beyond those sent (requests in flight when a run
    //    ended may or may not have reached the server), and the daily sums agree with the month.
    const usage = await storedUsage();
    // Scenarios sharing workspaces (d1, d2, f) are checked together.
    const groups = new Map<string, { scenarios: string[]; completed: number; sent: number; monthly: number; daily: number }>();
    for (const r of results.filter((r) => r.workspaces.length > 0)) {
      const id = r.workspaces.join(',');
      const group = groups.get(id) ?? { scenarios: [], completed: 0, sent: 0, ...sumUsage(usage, r.workspaces) };
      group.scenarios.push(r.id);
      group.completed += r.completedByApi;
      group.sent += r.sentToApi;
      groups.set(id, group);
    }
    const usageChecks = [...groups.values()].map((g) => ({
      ...g,
      ok: g.completed <= g.monthly && g.monthly <= g.sent && g.daily === g.monthly,
    }));
    // 2. Exact: per scenario, a fixed number of requests under the same concurrency with every response awaited;
    //    the stored counters must grow by exactly the number of successful responses, and all must succeed.
    const exactChecks = [];
    for (const r of results.filter((r) => r.workspaces.length > 0)) {
      const before = await settledUsage(async () => sumUsage(await storedUsage(), r.workspaces));
      const burst = await runLoad(server.baseUrl, r, { amount: EXACT_REQUESTS });
      const after = sumUsage(await storedUsage(), r.workspaces);
      const monthly = after.monthly - before.monthly;
      const daily = after.daily - before.daily;
      const ok = burst.ok2xx === EXACT_REQUESTS && burst.completed === EXACT_REQUESTS && monthly === burst.ok2xx && daily === burst.ok2xx;
      exactChecks.push({ scenario: r.id, requests: EXACT_REQUESTS, ok2xx: burst.ok2xx, status5xx: burst.status5xx, monthly, daily, ok });
    }
    const fiveHundreds =
      results.reduce((sum, r) => sum + r.status5xx + (r.pairedBaseline?.status5xx ?? 0), 0) + exactChecks.reduce((sum, c) => sum + c.status5xx, 0);
    const usageOk = usageChecks.every((c) => c.ok) && exactChecks.every((c) => c.ok);

    const baselineRow = results[0]!;
    const pairedRates = results.flatMap((r) => (r.pairedBaseline ? [r.pairedBaseline.requestsPerSecond] : []));
    const table = rows(results);
    console.log(`\nBenchmark: ${CONNECTIONS} connections, ${DURATION_S} s per scenario after ${WARMUP_S} s warm-up, alternating in ${ROUNDS} rounds with ${BASELINE_S} s of baseline; ${os.cpus().length} CPUs, Node ${process.version}${Object.keys(serverEnv).length ? `; server env ${process.env.BENCH_SERVER_ENV}` : ''}\n`);
    console.log(markdownTable(table));
    console.log(
      `\nbaseline req/s: ${Math.round(baselineRow.requestsPerSecond)} in its own run, ${Math.round(Math.min(...pairedRates))}–${Math.round(Math.max(...pairedRates))} in the paired runs (each ratio is to its own paired runs)`,
    );
    for (const c of usageChecks) {
      console.log(
        `usage, timed runs (${c.scenarios.join('+')}): ${c.completed} completed ≤ stored monthly ${c.monthly} ≤ ${c.sent} sent (${c.sent - c.completed} in flight when runs ended); daily ${c.daily} → ${c.ok ? 'OK' : 'MISMATCH'}`,
      );
    }
    for (const c of exactChecks) {
      console.log(`usage, exact (${c.scenario}): ${c.requests} requests, every response awaited, ${c.ok2xx} 2xx; stored monthly +${c.monthly}, daily +${c.daily} → ${c.ok ? 'OK' : 'MISMATCH'}`);
    }
    console.log(`5xx responses: ${fiveHundreds} → ${fiveHundreds === 0 ? 'OK' : 'FAIL'}`);
    const [plainCreate, pricedCreate] = ['e', 'e2'].map((id) => results.find((r) => r.id === id));
    if (plainCreate && pricedCreate) {
      const relative = pricedCreate.ratio / plainCreate.ratio;
      console.log(
        `(e2) priced in USD vs (e) amount: ${Math.round(pricedCreate.requestsPerSecond)} vs ${Math.round(plainCreate.requestsPerSecond)} req/s, ratios ${pricedCreate.ratio.toFixed(3)} vs ${plainCreate.ratio.toFixed(3)} of their paired baselines → ${relative.toFixed(3)} (goal ≥ 0.95) ${relative >= 0.95 ? 'OK' : 'BELOW'}`,
      );
    }

    // The token buckets and the request log: the same scenarios against a second server without them, alternating
    // in rounds (same process layout, same database), as ratios with/without.
    const comparisons: LimitsComparison[] = [];
    if (process.env.BENCH_LIMITS_COMPARE !== '0') {
      server.child.kill('SIGSTOP'); // idle, but keep it from competing for the CPU
      try {
        without = await startNext({ port: await freePort(), databaseUrl: database.url, env: { ...RAISED_LIMITS, ...serverEnv, ...WITHOUT_LIMITS_AND_LOG }, stdio: 'pipe', nodeArgs: serverNodeArgs });
      } finally {
        server.child.kill('SIGCONT');
      }
      for (const scenario of all.filter((s) => COMPARED.includes(s.id) && (!only || only.includes(s.id)))) {
        const targets = [
          { name: 'with', target: server, parts: [] as LoadResult[], cpu: 0 },
          { name: 'without', target: without, parts: [] as LoadResult[], cpu: 0 },
        ];
        for (const t of targets) await runLoad(t.target.baseUrl, scenario, { duration: WARMUP_S });
        for (let round = 0; round < ROUNDS; round++) {
          for (const t of round % 2 === 0 ? targets : [...targets].reverse()) {
            const pid = t.target.child.pid ?? 0;
            const before = treeCpuMs(pid);
            t.parts.push(await runLoad(t.target.baseUrl, scenario, { duration: DURATION_S / ROUNDS }));
            t.cpu += treeCpuMs(pid) - before;
          }
        }
        const [withLoad, withoutLoad] = targets.map((t) => combine(t.parts));
        comparisons.push({
          scenario: scenario.id,
          withRps: Math.round(withLoad!.requestsPerSecond),
          withoutRps: Math.round(withoutLoad!.requestsPerSecond),
          ratio: withLoad!.requestsPerSecond / withoutLoad!.requestsPerSecond,
          withServerCpuMsPerRequest: targets[0]!.cpu / Math.max(withLoad!.sent, 1),
          withoutServerCpuMsPerRequest: targets[1]!.cpu / Math.max(withoutLoad!.sent, 1),
        });
        console.error(`[bench] ${scenario.id} with/without buckets+request log: ${comparisons.at(-1)!.ratio.toFixed(3)}`);
      }
      await without.stop();
      without = undefined;
      console.log('\nToken buckets + request log, paired with/without in rounds (same database):\n');
      console.log(
        markdownTable(
          comparisons.map((c) => ({
            scenario: c.scenario,
            'with req/s': c.withRps,
            'without req/s': c.withoutRps,
            'with / without': c.ratio.toFixed(3),
            'server CPU ms/req, with': c.withServerCpuMsPerRequest.toFixed(2),
            'without': c.withoutServerCpuMsPerRequest.toFixed(2),
          })),
        ),
      );
    }

    // (i) Two app servers on one database (scripts/bench/two-servers.ts), started fresh with the same settings
    // but a real Developer plan for the limits checks; the first server is stopped so four processes, not five, share the cores.
    let twoServersResult: TwoServerResult | null = null;
    let twoServersOk = true;
    if (!only || only.includes('i')) {
      await server.stop();
      server = undefined;
      const pair: NextServer[] = [];
      try {
        for (let i = 0; i < 2; i++) {
          pair.push(await startNext({ port: await freePort(), databaseUrl: database.url, env: { ...RAISED_LIMITS, ...serverEnv, ...TWO_SERVER_ENV }, stdio: 'pipe', nodeArgs: serverNodeArgs }));
        }
        const spread = all.find((s) => s.id === 'b')!;
        for (const one of pair) await runLoad(one.baseUrl, spread, { duration: WARMUP_S });
        const { createUserWithWorkspace } = await import('../../lib/workspaces/workspaces');
        const { createApiKey } = await import('../../lib/keys/keys');
        const { durablePool } = await import('../../lib/db');
        twoServersResult = await twoServers({
          urls: [pair[0]!.baseUrl, pair[1]!.baseUrl],
          runLoad,
          spread,
          connections: CONNECTIONS,
          durationSeconds: DURATION_S,
          rounds: ROUNDS,
          exactRequests: EXACT_REQUESTS,
          usageOf: async (workspaces) => sumUsage(await storedUsage(), workspaces),
          developerWorkspace: async (name) => {
            const { workspace } = await createUserWithWorkspace({ email: `${name}-${Date.now()}@bench.test`, password: 'bench password', workspaceName: name, plan: 'Developer' });
            return { workspaceId: workspace.id, secret: (await createApiKey(workspace.id, { label: name, environment: 'test' })).secret };
          },
          sql: async (text, values) => void (await durablePool().query(text, values)),
        });
        twoServersOk = printTwoServers(twoServersResult);
        console.error(`[bench] i two servers: ${twoServersOk ? 'checks OK' : 'CHECK FAILED'}`);
      } finally {
        for (const one of pair) await one.stop().catch(() => undefined);
      }
    }

    // (g) webhook delivery and (h) chain watcher: their own scripts (own database, worker, local chain), run after
    // the HTTP load has ended, so every figure of docs/benchmarks.md comes from one `npm run bench`.
    let standaloneOk = true;
    for (const [id, script] of [['g', 'webhook-delivery.ts'], ['h', 'chain-watcher.ts'], ['h', 'chain-watcher-tron.ts']] as const) {
      if (only && !only.includes(id)) continue;
      console.log('');
      const ok = (await runStandalone(path.join(PROJECT_ROOT, 'scripts/bench', script))) === 0;
      if (!ok) console.error(`[bench] ${id} ${script} failed`);
      standaloneOk &&= ok;
    }

    const resultsDir = path.join(PROJECT_ROOT, 'bench', 'results');
    mkdirSync(resultsDir, { recursive: true });
    const file = path.join(resultsDir, `bench-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
    const raw = results.map(({ headers: _h, paths: _p, workspaces: _w, ...r }) => r);
    writeFileSync(
      file,
      JSON.stringify({ at: new Date().toISOString(), connections: CONNECTIONS, durationSeconds: DURATION_S, warmupSeconds: WARMUP_S, baselineSeconds: BASELINE_S, rounds: ROUNDS, serverEnv, cpus: os.cpus().length, node: process.version, table, raw, usageChecks, exactChecks, fiveHundreds, limitsComparison: comparisons, twoServers: twoServersResult }, null, 2),
    );
    console.log(`\nresults: ${path.relative(PROJECT_ROOT, file)} (${((Date.now() - started) / 1000).toFixed(0)} s in all)`);
    await disconnectDb();
    process.exitCode = usageOk && twoServersOk && standaloneOk && fiveHundreds === 0 ? 0 : 1;
  } finally {
    await cleanup();
  }
}

/** A bench script of its own (scripts/bench/*.ts), run under tsx with this terminal; resolves to its exit code. */
function runStandalone(script: string): Promise<number | null> {
  const child = spawn(process.execPath, ['--import', 'tsx', script], { cwd: PROJECT_ROOT, stdio: 'inherit' });
  return new Promise((resolve) => {
    child.once('exit', (code) => resolve(code));
    child.once('error', () => resolve(1));
  });
}

async function storedUsage(): Promise<{ workspace_id: string; monthly: number; daily: number }[]> {
  const { db } = await import('../../lib/db');
  return db().$queryRawUnsafe(
    `SELECT w.id AS workspace_id,
            COALESCE((SELECT sum(count) FROM usage_monthly m WHERE m.workspace_id = w.id), 0)::int AS monthly,
            COALESCE((SELECT sum(count) FROM usage_daily d WHERE d.workspace_id = w.id), 0)::int AS daily
     FROM workspaces w`,
  );
}

function sumUsage(usage: { workspace_id: string; monthly: number; daily: number }[], workspaces: string[]) {
  const mine = usage.filter((u) => workspaces.includes(u.workspace_id));
  return { monthly: mine.reduce((s, u) => s + u.monthly, 0), daily: mine.reduce((s, u) => s + u.daily, 0) };
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
