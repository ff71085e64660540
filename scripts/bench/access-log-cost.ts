/**
 * `npx tsx scripts/bench/access-log-cost.ts`: what the access log costs. Two `next start` processes on one
 * database, one with ACCESS_LOG=true and one with ACCESS_LOG=false, loaded in alternating short rounds with
 * GET /v1/me (the cheapest authenticated request, where a fixed per-request cost shows most), through the bench's
 * own load generator. Prints req/s, p50 and the server's CPU time per request for each, and the ratios.
 * Env: COST_ROUNDS (4), COST_SECONDS (5 per round and side), COST_CONNECTIONS (50).
 */
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { ensureEmbeddedDatabase, freePort, makeTempDir } from '../db/embedded';
import { migrate } from '../db/migrate';
import { ensureBuild, PROJECT_ROOT, startNext, type NextServer } from '../next-app';
import { treeCpuMs } from './proc';

const ROUNDS = Number(process.env.COST_ROUNDS ?? 4);
const SECONDS = Number(process.env.COST_SECONDS ?? 5);
const CONNECTIONS = Number(process.env.COST_CONNECTIONS ?? 50);
const LIMITS = { PLAN_BUSINESS_MONTHLY_LIMIT: '1000000000', PLAN_BUSINESS_RATE_LIMIT: '1000000' };

interface Load {
  requestsPerSecond: number;
  completed: number;
  p50: number;
}

function load(url: string, key: string): Promise<Load> {
  const input = JSON.stringify({ url, connections: CONNECTIONS, duration: SECONDS, method: 'GET', paths: ['/v1/me'], headers: [{ 'x-api-key': key }] });
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(PROJECT_ROOT, 'scripts/bench/load.mjs'), input], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.on('exit', (code) => (code === 0 ? resolve(JSON.parse(out) as Load) : reject(new Error(`load exited ${code}`))));
  });
}

async function main() {
  const dir = makeTempDir('invoicing-logcost-');
  const servers: NextServer[] = [];
  const db = await ensureEmbeddedDatabase({ dataDir: path.join(dir, 'postgres'), port: 0, database: 'logcost', verbose: false });
  try {
    await migrate(db.url, { quiet: true });
    await ensureBuild({ stdio: 'stderr' });
    process.env.DATABASE_URL = db.url;
    const { createUserWithWorkspace } = await import('../../lib/workspaces/workspaces');
    const { createApiKey } = await import('../../lib/keys/keys');
    const { workspace } = await createUserWithWorkspace({ email: 'cost@example.test', password: 'a long password', plan: 'Business' });
    const { secret } = await createApiKey(workspace.id, { label: 'cost', environment: 'test' });
    const { disconnectDb } = await import('../../lib/db');
    await disconnectDb();

    const sides = [
      { name: 'ACCESS_LOG=false', env: { ...LIMITS, ACCESS_LOG: 'false' } },
      { name: 'ACCESS_LOG=true', env: { ...LIMITS, ACCESS_LOG: 'true' } },
    ];
    const totals = sides.map(() => ({ completed: 0, seconds: 0, cpuMs: 0, p50: [] as number[] }));
    for (const side of sides) servers.push(await startNext({ port: await freePort(), databaseUrl: db.url, env: side.env, stdio: 'pipe' }));
    for (const server of servers) await load(server.baseUrl, secret); // warm-up
    for (let round = 0; round < ROUNDS; round++) {
      // Alternate the order each round, so a change in the machine's load hits both sides alike.
      const order = round % 2 === 0 ? [0, 1] : [1, 0];
      for (const i of order) {
        const pid = servers[i]!.child.pid!;
        const before = treeCpuMs(pid);
        const result = await load(servers[i]!.baseUrl, secret);
        totals[i]!.cpuMs += treeCpuMs(pid) - before;
        totals[i]!.completed += result.completed;
        totals[i]!.seconds += SECONDS;
        totals[i]!.p50.push(result.p50);
      }
    }
    const figures = totals.map((t) => ({
      rps: t.completed / t.seconds,
      cpuPerRequest: t.cpuMs / t.completed,
      p50: t.p50.sort((a, b) => a - b)[Math.floor(t.p50.length / 2)]!,
    }));
    console.log(`\nGET /v1/me, ${CONNECTIONS} connections, ${ROUNDS} alternating rounds of ${SECONDS} s per side\n`);
    console.log('| server | req/s | p50 ms | server CPU ms/request |');
    console.log('|---|---|---|---|');
    sides.forEach((side, i) => console.log(`| ${side.name} | ${figures[i]!.rps.toFixed(0)} | ${figures[i]!.p50} | ${figures[i]!.cpuPerRequest.toFixed(3)} |`));
    console.log(
      `\nwith the access log: req/s × ${(figures[1]!.rps / figures[0]!.rps).toFixed(3)}, CPU per request × ${(figures[1]!.cpuPerRequest / figures[0]!.cpuPerRequest).toFixed(3)}`,
    );
  } finally {
    for (const server of servers) await server.stop();
    await db.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
