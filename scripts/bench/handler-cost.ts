/**
 * Our share of a request's CPU, without the framework: the /v1 route modules' exported handlers (the same
 * functions Next calls: access log, withApiKey, the endpoint) called directly in this process with web
 * Request objects, 50 in flight, against a real embedded PostgreSQL seeded like `npm run bench`. Prints the
 * CPU time of this process per request (our code, zod, JSON, the postgres.js client; not PostgreSQL's), next
 * to a handler that only builds its Response, and PostgreSQL's CPU per request (its whole process tree): what remains of scripts/bench/run.ts's server CPU per request
 * after this is Next's routing and Node's HTTP.
 *
 *   npx tsx scripts/bench/handler-cost.ts > /dev/null        (results on stderr; stdout carries the access log)
 *   node --cpu-prof --cpu-prof-dir=/tmp/handler-prof --import tsx scripts/bench/handler-cost.ts > /dev/null
 *   HANDLER_REQUESTS (default 20000 per scenario), HANDLER_ONLY=b,e, HANDLER_INVOICES (seeded, default 20000),
 *   HANDLER_SQL (statements run after seeding, separated by ';;', for database-side A/B runs), HANDLER_PLANS=1 (each
 *   hot-path statement's generic/custom plan counts, and WAL writes and flushes per request)
 */
import { rmSync } from 'node:fs';
import path from 'node:path';
import { ensureEmbeddedDatabase, makeTempDir, runningServer } from '../db/embedded';
import { treeCpuMs } from './proc';
import { migrate } from '../db/migrate';

const REQUESTS = Number(process.env.HANDLER_REQUESTS ?? 20_000);
const IN_FLIGHT = 50;
const ORIGIN = 'http://127.0.0.1:3000';

type Handler = (request: Request, context: { params: Promise<Record<string, string>> }) => Promise<Response>;

interface Case {
  id: string;
  name: string;
  handler: Handler;
  request: (i: number) => { request: Request; params: Record<string, string> };
}

async function run(one: Case, count: number, postmasterPid: number): Promise<{ cpuMsPerRequest: number; dbCpuMsPerRequest: number; wallRps: number; statuses: Map<number, number> }> {
  const statuses = new Map<number, number>();
  let next = 0;
  const cpu = process.cpuUsage();
  const dbBefore = treeCpuMs(postmasterPid);
  const started = performance.now();
  const lane = async () => {
    while (next < count) {
      const { request, params } = one.request(next++);
      const response = await one.handler(request, { params: Promise.resolve(params) });
      await response.arrayBuffer();
      statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, lane));
  const used = process.cpuUsage(cpu);
  return { cpuMsPerRequest: (used.user + used.system) / 1000 / count, dbCpuMsPerRequest: (treeCpuMs(postmasterPid) - dbBefore) / count, wallRps: count / ((performance.now() - started) / 1000), statuses };
}

/** WAL writes and fsyncs so far, server-wide (pg_stat_io, PostgreSQL 16+). */
async function walIo(): Promise<{ writes: number; fsyncs: number }> {
  const { durablePool } = await import('../../lib/db');
  const { rows } = await durablePool().query<{ writes: string | null; fsyncs: string | null }>(
    `SELECT sum(writes)::text AS writes, sum(fsyncs)::text AS fsyncs FROM pg_stat_io WHERE object = 'wal'`,
  );
  return { writes: Number(rows[0]?.writes ?? 0), fsyncs: Number(rows[0]?.fsyncs ?? 0) };
}

async function main() {
  const dir = makeTempDir('bench-handler-');
  const database = await ensureEmbeddedDatabase({ dataDir: path.join(dir, 'pg'), port: 0, database: 'bench_handler', verbose: false });
  try {
    await migrate(database.url, { quiet: true });
    Object.assign(process.env, {
      DATABASE_URL: database.url,
      PLAN_BUSINESS_MONTHLY_LIMIT: '1000000000',
      PLAN_BUSINESS_RATE_LIMIT: '1000000',
    });
    const { seed } = await import('./seed');
    const data = await seed(Number(process.env.HANDLER_INVOICES ?? 20_000));
    const me = (await import('../../app/v1/me/route')) as unknown as Record<string, Handler>;
    const invoices = (await import('../../app/v1/invoices/route')) as unknown as Record<string, Handler>;
    const invoice = (await import('../../app/v1/invoices/[id]/route')) as unknown as Record<string, Handler>;
    const get = (url: string, key: string) => new Request(`${ORIGIN}${url}`, { headers: { 'x-api-key': key, 'x-forwarded-for': '127.0.0.1' } });
    const bare: Handler = async () => new Response('{"status":"ok"}', { headers: { 'content-type': 'application/json' } });
    const cases: Case[] = [
      { id: 'a', name: 'a handler that only answers (the floor)', handler: bare, request: () => ({ request: get('/api/health', ''), params: {} }) },
      { id: 'b', name: 'GET /v1/me, 100 keys', handler: me.GET!, request: (i) => ({ request: get('/v1/me', data.manyKeys[i % data.manyKeys.length]!), params: {} }) },
      { id: 'c', name: 'GET /v1/me, one key', handler: me.GET!, request: () => ({ request: get('/v1/me', data.hotKey), params: {} }) },
      { id: 'd1', name: 'GET /v1/invoices?limit=20', handler: invoices.GET!, request: () => ({ request: get('/v1/invoices?limit=20', data.bigKey), params: {} }) },
      {
        id: 'e',
        name: 'POST /v1/invoices',
        handler: invoices.POST!,
        request: () => ({
          request: new Request(`${ORIGIN}/v1/invoices`, {
            method: 'POST',
            headers: { 'x-api-key': data.createKey, 'x-forwarded-for': '127.0.0.1', 'content-type': 'application/json' },
            body: JSON.stringify({ amount: '49.99', currency: 'USDT', network: 'tron' }),
          }),
          params: {},
        }),
      },
      {
        id: 'f',
        name: 'GET /v1/invoices/{id}',
        handler: invoice.GET!,
        request: (i) => {
          const id = data.invoiceIds[i % data.invoiceIds.length]!;
          return { request: get(`/v1/invoices/${id}`, data.bigKey), params: { id } };
        },
      },
    ];
    // HANDLER_SQL: a statement run after seeding, for A/B experiments on the database side (e.g. disabling a trigger).
    // Several statements: separated by ';;' (each runs on its own, so ALTER SYSTEM and pg_reload_conf() can follow each other).
    for (const statement of process.env.HANDLER_SQL?.split(';;') ?? []) await (await import('../../lib/db')).durablePool().query(statement);
    const postmasterPid = (await runningServer(database.dataDir))?.pid ?? 0;
    const only = process.env.HANDLER_ONLY?.split(',');
    console.error(`\nOur handlers without the framework: ${REQUESTS} requests per case, ${IN_FLIGHT} in flight, this process's CPU per request`);
    console.error('| case | CPU ms/req | over the floor | PostgreSQL CPU ms/req | wall req/s | statuses |\n| --- | --- | --- | --- | --- | --- |');
    let floor = 0;
    for (const one of cases.filter((c) => c.id === 'a' || !only || only.includes(c.id))) {
      await run(one, Math.min(2000, REQUESTS), postmasterPid); // warm-up: JIT, statement preparation, connections
      const walBefore = await walIo();
      const result = await run(one, REQUESTS, postmasterPid);
      if (process.env.HANDLER_PLANS) {
        await new Promise((resolve) => setTimeout(resolve, 1500)); // backends report their I/O statistics within a second
        const walAfter = await walIo();
        console.error(`(${one.id}) WAL per request: ${((walAfter.writes - walBefore.writes) / REQUESTS).toFixed(3)} writes, ${((walAfter.fsyncs - walBefore.fsyncs) / REQUESTS).toFixed(3)} fsyncs`);
      }
      if (one.id === 'a') floor = result.cpuMsPerRequest;
      const statuses = [...result.statuses].map(([status, n]) => `${status}×${n}`).join(' ');
      console.error(
        `| (${one.id}) ${one.name} | ${result.cpuMsPerRequest.toFixed(3)} | ${(result.cpuMsPerRequest - floor).toFixed(3)} | ${result.dbCpuMsPerRequest.toFixed(3)} | ${result.wallRps.toFixed(0)} | ${statuses} |`,
      );
    }
    const { disconnectDb, durableSql, meteringSql } = await import('../../lib/db');
    // HANDLER_PLANS=1: how each prepared statement of one connection per hot-path client was planned (a custom
    // plan on every execution means the statement is planned afresh each time: a planning cost per request).
    if (process.env.HANDLER_PLANS) {
      for (const [name, sql] of [['metering', meteringSql()], ['durable', durableSql()]] as const) {
        const rows = await sql.unsafe<{ generic_plans: string; custom_plans: string; statement: string }[]>(
          'SELECT generic_plans, custom_plans, statement FROM pg_prepared_statements ORDER BY generic_plans + custom_plans DESC',
        );
        for (const row of rows) console.error(`${name}: generic ${row.generic_plans}, custom ${row.custom_plans}: ${row.statement.replace(/\s+/g, ' ').slice(0, 100)}`);
      }
    }
    await disconnectDb();
  } finally {
    await database.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
