/**
 * `npm run bench`: production build, own embedded PostgreSQL, seeded data, autocannon load from a separate
 * process per scenario, one table of figures with each scenario's throughput as a ratio of the baseline
 * measured in the same run, then correctness checks. Stops everything it started.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ensureEmbeddedDatabase, freePort, type EmbeddedDatabase } from '../db/embedded';
import { migrate } from '../db/migrate';
import { ensureBuild, PROJECT_ROOT, startNext, type NextServer } from '../next-app';

const DURATION_S = Number(process.env.BENCH_DURATION ?? 10);
const WARMUP_S = Number(process.env.BENCH_WARMUP ?? 2);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const INVOICES = Number(process.env.BENCH_INVOICES ?? 100_000);
// Limits raised through configuration, so the full request path (limit checks included) is measured.
const RAISED_LIMITS = {
  PLAN_BUSINESS_MONTHLY_LIMIT: '1000000000',
  PLAN_BUSINESS_RATE_LIMIT: '1000000',
  PLAN_DEVELOPER_MONTHLY_LIMIT: '1000000000',
  PLAN_DEVELOPER_RATE_LIMIT: '1000000',
};

interface LoadConfig {
  method: 'GET' | 'POST';
  paths: string[];
  headers: Record<string, string>[];
  body?: unknown;
}

interface LoadResult {
  requestsPerSecond: number;
  sent: number;
  total: number;
  p50: number;
  p99: number;
  ok2xx: number;
  non2xx: number;
  status5xx: number;
  errors: number;
  timeouts: number;
}

interface Scenario extends LoadConfig {
  id: string;
  name: string;
  authenticated: boolean;
  target?: number;
}

function runLoad(baseUrl: string, config: LoadConfig, duration: number): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(PROJECT_ROOT, 'scripts/bench/load.mjs'), JSON.stringify({ url: baseUrl, connections: CONNECTIONS, duration, ...config })], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve(JSON.parse(out) as LoadResult) : reject(new Error(`load generator exited ${code}`))));
  });
}

/** Resident memory of the server process and its children, in MiB. */
function rssMiB(pid: number): number {
  const pids = [pid];
  try {
    for (const child of readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean)) pids.push(Number(child));
  } catch {
    // no children file: the pid alone
  }
  let kib = 0;
  for (const p of pids) {
    try {
      const match = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${p}/status`, 'utf8'));
      kib += Number(match?.[1] ?? 0);
    } catch {
      // process gone
    }
  }
  return Math.round(kib / 1024);
}

function table(rows: Record<string, string | number>[]): string {
  const columns = Object.keys(rows[0] ?? {});
  const widths = columns.map((c) => Math.max(c.length, ...rows.map((r) => String(r[c]).length)));
  const line = (cells: string[]) => `| ${cells.map((cell, i) => cell.padEnd(widths[i]!)).join(' | ')} |`;
  return [line(columns), line(widths.map((w) => '-'.repeat(w))), ...rows.map((r) => line(columns.map((c) => String(r[c]))))].join('\n');
}

async function main() {
  const started = Date.now();
  const tempDir = mkdtempSync(path.join(os.tmpdir(), 'invoicing-bench-'));
  let database: EmbeddedDatabase | undefined;
  let server: NextServer | undefined;
  const cleanup = async () => {
    await server?.stop().catch(() => undefined);
    await database?.stop().catch(() => undefined);
    rmSync(tempDir, { recursive: true, force: true });
  };
  process.once('SIGINT', () => void cleanup().then(() => process.exit(130)));
  process.once('SIGTERM', () => void cleanup().then(() => process.exit(143)));

  try {
    database = await ensureEmbeddedDatabase({ dataDir: path.join(tempDir, 'postgres'), port: 0, database: 'invoicing_bench', verbose: false });
    await migrate(database.url, { quiet: true });
    await ensureBuild({ stdio: 'stderr' });
    process.env.DATABASE_URL = database.url;
    Object.assign(process.env, RAISED_LIMITS);

    console.error(`[bench] seeding ${INVOICES.toLocaleString('en')} invoices and 103 keys…`);
    const { seed } = await import('./seed');
    const data = await seed(INVOICES);
    const { db, disconnectDb } = await import('../../lib/db');

    // BENCH_PROFILE=dir writes a V8 CPU profile of the server (summarise with scripts/bench/profile-summary.ts).
    const nodeArgs = process.env.BENCH_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(process.env.BENCH_PROFILE)}`] : [];
    server = await startNext({ port: await freePort(), databaseUrl: database.url, env: RAISED_LIMITS, stdio: 'pipe', nodeArgs });
    const pid = server.child.pid ?? 0;
    const key = (secret: string) => ({ 'x-api-key': secret });

    const scenarios: Scenario[] = [
      { id: 'a', name: 'baseline GET /api/health', authenticated: false, method: 'GET', paths: ['/api/health'], headers: [{}] },
      { id: 'b', name: 'GET /v1/me, 100 keys / 20 workspaces', authenticated: true, target: 0.8, method: 'GET', paths: ['/v1/me'], headers: data.manyKeys.map(key) },
      { id: 'c', name: 'GET /v1/me, one key (hot usage row)', authenticated: true, target: 0.75, method: 'GET', paths: ['/v1/me'], headers: [key(data.hotKey)] },
      { id: 'd1', name: 'GET /v1/invoices?limit=20, first page', authenticated: true, target: 0.7, method: 'GET', paths: ['/v1/invoices?limit=20'], headers: [key(data.bigKey)] },
      { id: 'd2', name: 'GET /v1/invoices?limit=20, deep cursor', authenticated: true, method: 'GET', paths: [`/v1/invoices?limit=20&starting_after=${data.deepCursor}`], headers: [key(data.bigKey)] },
      { id: 'e', name: 'POST /v1/invoices', authenticated: true, target: 0.6, method: 'POST', paths: ['/v1/invoices'], headers: [key(data.createKey)], body: { amount: '49.99', currency: 'USDT', network: 'tron' } },
      { id: 'f', name: 'GET /v1/invoices/{id}', authenticated: true, target: 0.75, method: 'GET', paths: data.invoiceIds.map((id) => `/v1/invoices/${id}`), headers: [key(data.bigKey)] },
    ];

    const results: (Scenario & LoadResult & { rss: number; warmupSent: number })[] = [];
    const only = process.env.BENCH_ONLY?.split(',');
    for (const scenario of scenarios.filter((s) => s.id === 'a' || !only || only.includes(s.id))) {
      const warmup = await runLoad(server.baseUrl, scenario, WARMUP_S);
      const measured = await runLoad(server.baseUrl, scenario, DURATION_S);
      results.push({ ...scenario, ...measured, rss: rssMiB(pid), warmupSent: warmup.sent });
      console.error(`[bench] ${scenario.id} ${scenario.name}: ${Math.round(measured.requestsPerSecond)} req/s, p99 ${measured.p99} ms`);
    }

    const baseline = results[0]!;
    const rows = results.map((r) => ({
      scenario: `(${r.id}) ${r.name}`,
      'req/s': Math.round(r.requestsPerSecond),
      'p50 ms': r.p50,
      'p99 ms': r.p99,
      errors: r.non2xx + r.errors + r.timeouts,
      'RSS MiB': r.rss,
      ratio: (r.requestsPerSecond / baseline.requestsPerSecond).toFixed(2),
      target: r.target ? `≥ ${r.target.toFixed(2)}` : r.id === 'd2' ? 'within 10% of d1' : '',
      'p99 ≤ 2× base': r.p99 <= 2 * baseline.p99 ? 'yes' : 'NO',
    }));

    // Correctness: every authenticated request sent (all succeed with raised limits) was counted exactly once; no 5xx.
    const expectedUsage = results.filter((r) => r.authenticated).reduce((sum, r) => sum + r.sent + r.warmupSent, 0);
    const stored = await db().usageMonthly.aggregate({ _sum: { count: true } });
    const storedUsage = stored._sum.count ?? 0;
    const fiveHundreds = results.reduce((sum, r) => sum + r.status5xx, 0);
    const d1 = results.find((r) => r.id === 'd1');
    const d2 = results.find((r) => r.id === 'd2');
    const deepRatio = d1 && d2 ? d2.requestsPerSecond / d1.requestsPerSecond : NaN;

    console.log(`\nBenchmark: ${CONNECTIONS} connections, ${DURATION_S} s per scenario after ${WARMUP_S} s warm-up, ${os.cpus().length} CPUs, Node ${process.version}\n`);
    console.log(table(rows));
    console.log(`\ndeep page / first page throughput: ${deepRatio.toFixed(2)} (target ≥ 0.90)`);
    console.log(`usage check: stored monthly usage ${storedUsage} vs requests that reached the API ${expectedUsage} → ${storedUsage === expectedUsage ? 'OK' : 'MISMATCH'}`);
    console.log(`5xx responses: ${fiveHundreds} → ${fiveHundreds === 0 ? 'OK' : 'FAIL'}`);

    const resultsDir = path.join(PROJECT_ROOT, 'bench', 'results');
    mkdirSync(resultsDir, { recursive: true });
    const file = path.join(resultsDir, `bench-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
    writeFileSync(
      file,
      JSON.stringify({ at: new Date().toISOString(), connections: CONNECTIONS, durationSeconds: DURATION_S, results: rows, raw: results.map(({ headers: _h, paths: _p, ...r }) => r), deepRatio, storedUsage, expectedUsage, fiveHundreds }, null, 2),
    );
    console.log(`\nresults: ${path.relative(PROJECT_ROOT, file)} (${((Date.now() - started) / 1000).toFixed(0)} s in all)`);
    await disconnectDb();
    process.exitCode = storedUsage === expectedUsage && fiveHundreds === 0 ? 0 : 1;
  } finally {
    await cleanup();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
