/**
 * Scenario (i): two app server processes on one database, as a horizontally scaled deployment runs them.
 * Three questions, each answered with figures:
 *
 *  1. Throughput: scenario (b) against one server, then split over both (half the connections each), in
 *     alternating rounds. On a 2-core machine the two servers, PostgreSQL and the load generators share the
 *     same cores, so this shows the cost of coordination through the database, not a gain from scaling.
 *  2. Usage stays exact: a fixed number of requests split over both servers, every response awaited; the stored
 *     monthly and daily counters must grow by exactly the number of 2xx answers.
 *  3. Limits stay shared (they live in the database, not in a process):
 *     - monthly: a Developer workspace `MONTHLY_HEADROOM` requests short of its allowance gets exactly that many
 *       2xx out of 20× as many requests sent to both servers at once;
 *     - per second: one Developer key (rate `RATE` per second) sent a burst through both servers is admitted at
 *       most its bucket's capacity plus what refills during the burst — not twice that, as two in-process
 *       limiters would allow.
 */
import { monthPeriod } from '../../lib/usage/period';
import type { LoadConfig } from './scenarios';

export const TWO_SERVER_ENV = {
  // Developer keeps a real monthly allowance and a real, small per-second limit for the limits checks;
  // Business stays raised (the throughput and exactness runs use Business workspaces).
  PLAN_DEVELOPER_MONTHLY_LIMIT: '10000',
  PLAN_DEVELOPER_RATE_LIMIT: '20',
};
const RATE = 20;
const MONTHLY_LIMIT = 10_000;
// Below the key's bucket (RATE tokens), so every counted request is also admitted by the per-second limit
// (docs/api.md counts a request before its rate check: a rate-limited request is counted too).
const MONTHLY_HEADROOM = 10;

export interface LoadFigures {
  requestsPerSecond: number;
  sent: number;
  completed: number;
  ok2xx: number;
  status5xx: number;
}

type RunLoad = (baseUrl: string, config: LoadConfig, length: { duration: number } | { amount: number }, connections?: number) => Promise<LoadFigures>;

interface Usage {
  monthly: number;
  daily: number;
}

export interface TwoServerOptions {
  urls: [string, string];
  runLoad: RunLoad;
  /** Scenario (b): many keys over many Business workspaces. */
  spread: LoadConfig & { workspaces: string[] };
  connections: number;
  durationSeconds: number;
  rounds: number;
  exactRequests: number;
  usageOf: (workspaces: string[]) => Promise<Usage>;
  /** Creates a Developer workspace with one test key; returns both. */
  developerWorkspace: (name: string) => Promise<{ workspaceId: string; secret: string }>;
  /** Runs SQL with parameters on the bench's own connection. */
  sql: (text: string, values: unknown[]) => Promise<void>;
}

export interface TwoServerResult {
  oneServerRps: number;
  twoServersRps: number;
  exact: { requests: number; ok2xx: number; monthly: number; daily: number; ok: boolean };
  monthly: { headroom: number; sent: number; ok2xx: number; stored: number; ok: boolean };
  rate: { rate: number; sent: number; ok2xx: number; seconds: number; allowed: number; ok: boolean };
}

/** Reads usage until two reads 500 ms apart agree (at most 10 s): the stragglers of a timed run are counted. */
export async function settledUsage(read: () => Promise<Usage>): Promise<Usage> {
  let last = await read();
  for (let i = 0; i < 20; i++) {
    await new Promise((resolve) => setTimeout(resolve, 500));
    const now = await read();
    if (now.monthly === last.monthly && now.daily === last.daily) return now;
    last = now;
  }
  return last;
}

const both = <T>(urls: [string, string], run: (url: string) => Promise<T>) => Promise.all(urls.map(run));

export async function twoServers(options: TwoServerOptions): Promise<TwoServerResult> {
  const { urls, runLoad, spread, connections } = options;
  const half = Math.max(1, Math.floor(connections / 2));

  // 1. Throughput, alternating one server / both servers.
  let one = 0;
  let two = 0;
  for (let round = 0; round < options.rounds; round++) {
    const seconds = options.durationSeconds / options.rounds;
    one += (await runLoad(urls[0], spread, { duration: seconds }, connections)).requestsPerSecond;
    two += (await both(urls, (url) => runLoad(url, spread, { duration: seconds }, half))).reduce((sum, r) => sum + r.requestsPerSecond, 0);
  }

  // 2. Exact usage across both servers. A timed run ends by dropping its sockets, and requests it had already
  //    sent may still be counted by the servers for a moment after: wait until the counts stop moving.
  const before = await settledUsage(() => options.usageOf(spread.workspaces));
  const exactRuns = await both(urls, (url) => runLoad(url, spread, { amount: options.exactRequests / 2 }, half));
  const after = await options.usageOf(spread.workspaces);
  const ok2xx = exactRuns.reduce((sum, r) => sum + r.ok2xx, 0);
  const exact = {
    requests: options.exactRequests,
    ok2xx,
    monthly: after.monthly - before.monthly,
    daily: after.daily - before.daily,
    ok: ok2xx === options.exactRequests && after.monthly - before.monthly === ok2xx && after.daily - before.daily === ok2xx,
  };

  // 3a. The monthly allowance, shared: the workspace starts MONTHLY_HEADROOM short of it.
  const monthlyWs = await options.developerWorkspace('bench-i-monthly');
  await options.sql('INSERT INTO usage_monthly (workspace_id, period, count) VALUES ($1, $2, $3)', [
    monthlyWs.workspaceId,
    monthPeriod(new Date()),
    MONTHLY_LIMIT - MONTHLY_HEADROOM,
  ]);
  const counted: LoadConfig = { method: 'GET', paths: ['/v1/invoices?limit=1'], headers: [{ 'x-api-key': monthlyWs.secret }] };
  const monthlySent = MONTHLY_HEADROOM * 20;
  const monthlyRuns = await both(urls, (url) => runLoad(url, counted, { amount: monthlySent / 2 }, 10));
  const monthlyOk = monthlyRuns.reduce((sum, r) => sum + r.ok2xx, 0);
  const stored = (await options.usageOf([monthlyWs.workspaceId])).monthly;
  const monthly = { headroom: MONTHLY_HEADROOM, sent: monthlySent, ok2xx: monthlyOk, stored, ok: monthlyOk === MONTHLY_HEADROOM && stored === MONTHLY_LIMIT };

  // 3b. The per-second limit, shared: a burst at one key through both servers.
  const rateWs = await options.developerWorkspace('bench-i-rate');
  const burst: LoadConfig = { method: 'GET', paths: ['/v1/me'], headers: [{ 'x-api-key': rateWs.secret }] };
  const rateSent = RATE * 20;
  const started = performance.now();
  const rateRuns = await both(urls, (url) => runLoad(url, burst, { amount: rateSent / 2 }, 25));
  // The load processes' own start-up is inside this interval, so `allowed` errs on the generous side.
  const seconds = (performance.now() - started) / 1000;
  const rateOk = rateRuns.reduce((sum, r) => sum + r.ok2xx, 0);
  const allowed = Math.floor(RATE + RATE * seconds);
  const rate = { rate: RATE, sent: rateSent, ok2xx: rateOk, seconds, allowed, ok: rateOk <= allowed && rateOk >= RATE };

  return { oneServerRps: one / options.rounds, twoServersRps: two / options.rounds, exact, monthly, rate };
}

export function printTwoServers(result: TwoServerResult): boolean {
  const { exact, monthly, rate } = result;
  console.log('\n(i) Two app servers on one database:\n');
  console.log(
    `  throughput, (b) over 100 keys: one server ${result.oneServerRps.toFixed(0)} req/s, two servers ${result.twoServersRps.toFixed(0)} req/s (${(result.twoServersRps / result.oneServerRps).toFixed(2)}×; 2 cores shared by both servers, PostgreSQL and the load)`,
  );
  console.log(`  usage, exact over both: ${exact.requests} requests, ${exact.ok2xx} 2xx; stored monthly +${exact.monthly}, daily +${exact.daily} → ${exact.ok ? 'OK' : 'MISMATCH'}`);
  console.log(
    `  monthly allowance shared: ${monthly.headroom} left, ${monthly.sent} requests over both → ${monthly.ok2xx} 2xx, stored ${monthly.stored} of ${MONTHLY_LIMIT} → ${monthly.ok ? 'OK' : 'MISMATCH'}`,
  );
  console.log(
    `  per-second limit shared: ${rate.rate}/s key, ${rate.sent} requests over both in ${rate.seconds.toFixed(2)} s → ${rate.ok2xx} 2xx (at most ${rate.allowed} allowed) → ${rate.ok ? 'OK' : 'OVER THE LIMIT'}`,
  );
  return exact.ok && monthly.ok && rate.ok;
}
