// `npm run chaos`: fault injection on a deployment of its own (docs/operations.md). Two web instances, three
// workers (each kept running by the same supervisor as `npm start`), 16 clients that create, pay and cancel
// invoices with Idempotency-Keys and retry like an SDK (same key, back-off, the other instance on failure),
// and a webhook receiver that verifies every delivery. Then, in turn: a worker is killed with SIGKILL, a web
// instance is killed (and started again), PostgreSQL is restarted (fast shutdown), the receiver fails for 8 s.
// Afterwards it checks the promises and prints the figures: requests, faults, recovery seconds, lost,
// duplicated. Exits non-zero when anything was lost or duplicated, or any request got a 500.
//
// CHAOS_SECONDS (default 40) is the length of the client load; CHAOS_EMBEDDED=true skips Debian's PostgreSQL 15.
import { randomBytes, randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { Webhook } from 'standardwebhooks';
import { freePort } from '../db/embedded';
import { migrate } from '../db/migrate';
import { ensureBuild, startNext, type NextServer } from '../next-app';
import { startWorker } from '../worker-process';
import { superviseWorker, type Supervisor } from '../worker-supervisor';
import { startChaosDatabase } from './database';

const SECONDS = Number(process.env.CHAOS_SECONDS ?? 40);
const CLIENTS = 16;
const WORKERS = 3;
const STALE_AFTER = 10;
const log = (message: string) => console.error(`[chaos] ${message}`);
const elapsed = (since: number) => Number(((performance.now() - since) / 1000).toFixed(2));

interface Outcome {
  status: number;
  json: Record<string, unknown> | null;
}

const counts = { requests: 0, attempts: 0, status500: 0, status503: 0, networkErrors: 0, gaveUp: 0, replays: 0 };

/** The receiver: verifies each delivery; answers 500 while `failing`; counts receipts per webhook-id. */
function startReceiver() {
  let verifier: Webhook | null = null;
  const received = new Map<string, number>();
  let failing = false;
  let invalid = 0;
  let refused = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (failing) return void (refused++, res.writeHead(500).end());
      try {
        if (!verifier) throw new Error('no secret yet');
        verifier.verify(Buffer.concat(chunks).toString('utf8'), req.headers as Record<string, string>);
      } catch {
        invalid++;
        return void res.writeHead(400).end();
      }
      const id = String(req.headers['webhook-id']);
      received.set(id, (received.get(id) ?? 0) + 1);
      res.writeHead(204).end();
    });
  });
  return {
    server,
    received,
    invalid: () => invalid,
    refused: () => refused,
    fail: (on: boolean) => (failing = on),
    useSecret: (secret: string) => (verifier = new Webhook(secret)),
    listen: () =>
      new Promise<string>((resolve) =>
        server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`)),
      ),
  };
}

/** An SDK-like call: the same Idempotency-Key on every retry, back-off, the other instance after a failure. */
async function request(
  bases: () => string[],
  secret: string,
  method: string,
  path: string,
  body: unknown,
  key: string,
  start: number,
): Promise<Outcome | null> {
  counts.requests++;
  const deadline = Date.now() + 60_000;
  for (let attempt = 0; Date.now() < deadline; attempt++) {
    const list = bases();
    const base = list[(start + attempt) % list.length]!;
    counts.attempts++;
    try {
      const response = await fetch(`${base}${path}`, {
        method,
        headers: { 'X-API-Key': secret, 'Idempotency-Key': key, 'Content-Type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(15_000),
      });
      const text = await response.text();
      if (response.status === 500) counts.status500++;
      if (response.status === 503) counts.status503++;
      const retry =
        response.status >= 500 ||
        response.status === 429 ||
        (response.status === 409 && text.includes('idempotency_key_in_use'));
      if (!retry) {
        if (response.headers.get('idempotent-replayed') === 'true') counts.replays++;
        return { status: response.status, json: text ? (JSON.parse(text) as Record<string, unknown>) : null };
      }
    } catch {
      counts.networkErrors++;
    }
    await sleep(Math.min(2000, 100 * 2 ** attempt) * (0.5 + Math.random()));
  }
  counts.gaveUp++;
  return null;
}

interface Seen {
  /** Idempotency-Key of each create → the invoice id the client got. */
  created: Map<string, string>;
  /** invoice id → the status the client last saw succeed. */
  status: Map<string, string>;
}

async function client(index: number, bases: () => string[], secret: string, until: number, seen: Seen) {
  while (Date.now() < until) {
    const key = `chaos-${index}-${randomUUID()}`;
    const created = await request(
      bases,
      secret,
      'POST',
      '/v1/invoices',
      { amount: '12.50', currency: 'USDT', network: 'tron', metadata: { chaos_key: key } },
      key,
      index,
    );
    if (created?.status !== 201) continue;
    const id = String(created.json!.id);
    seen.created.set(key, id);
    seen.status.set(id, 'pending');
    const dice = Math.random();
    if (dice < 0.2) continue;
    const action = dice < 0.65 ? 'pay' : 'cancel';
    const path = action === 'pay' ? `/v1/test/invoices/${id}/simulate-payment` : `/v1/invoices/${id}/cancel`;
    const done = await request(bases, secret, 'POST', path, {}, `${key}-${action}`, index + 1);
    if (done?.status === 200) seen.status.set(id, String(done.json!.status));
  }
}

/** Seconds until `check` holds, polled every 100 ms (null after `timeoutMs`). */
async function until(check: () => Promise<boolean>, timeoutMs = 120_000): Promise<number | null> {
  const started = performance.now();
  while (performance.now() - started < timeoutMs) {
    if (await check().catch(() => false)) return elapsed(started);
    await sleep(100);
  }
  return null;
}

async function main() {
  const database = await startChaosDatabase();
  log(`${database.kind} at ${database.url.replace(/:[^:@/]*@/, ':***@')}`);
  const cleanups: Array<() => Promise<unknown>> = [() => database.stop()];
  const cleanup = async () => {
    for (const step of cleanups.reverse()) await step().catch(() => undefined);
  };
  process.once('SIGINT', () => void cleanup().finally(() => process.exit(130)));
  try {
    await migrate(database.url, { quiet: true });
    Object.assign(process.env, {
      DATABASE_URL: database.url,
      WEBHOOK_ENCRYPTION_KEY: randomBytes(32).toString('base64url'),
      WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
      NEXTAUTH_SECRET: randomBytes(32).toString('base64url'),
    });
    await ensureBuild({ stdio: 'stderr' });
    // Modules that read the environment are loaded once it is set.
    const { createUserWithWorkspace } = await import('../../lib/workspaces/workspaces');
    const { createApiKey } = await import('../../lib/keys/keys');
    const { createWebhookEndpoint } = await import('../../lib/webhooks/endpoints');
    const { disconnectDb } = await import('../../lib/db');
    cleanups.push(() => disconnectDb());

    const { workspace } = await createUserWithWorkspace({
      email: `chaos-${randomUUID()}@example.test`,
      password: 'correct horse battery',
      workspaceName: 'Chaos',
      plan: 'Business',
    });
    const { secret } = await createApiKey(workspace.id, { label: 'chaos', environment: 'test' });
    const receiver = startReceiver();
    const url = await receiver.listen();
    const endpoint = await createWebhookEndpoint(
      workspace.id,
      { url, environment: 'test' },
      { allowPrivateNetworks: true },
    );
    receiver.useSecret(endpoint.secret);
    cleanups.push(() => new Promise((resolve) => receiver.server.close(resolve)));

    const ports = [await freePort(), await freePort()];
    const publicUrl = `http://127.0.0.1:${ports[0]}`;
    const webEnv = { PUBLIC_URL: publicUrl, RPC_URL_ETHEREUM: '' };
    const web: Array<NextServer | null> = await Promise.all(
      ports.map((port) => startNext({ port, databaseUrl: database.url, stdio: 'pipe', env: webEnv })),
    );
    cleanups.push(() => Promise.all(web.map((server) => server?.stop())));
    const bases = () => web.flatMap((server) => (server ? [server.baseUrl] : []));

    let stopping = false;
    const workerEnv = {
      ...webEnv,
      WORKER_STALE_AFTER_SECONDS: String(STALE_AFTER),
      WORKER_CONCURRENCY: '32',
      WEBHOOK_RETRY_SCHEDULE: '1,2,4,8,15,30,60',
    };
    const workers: Supervisor[] = Array.from({ length: WORKERS }, () =>
      superviseWorker({
        start: async () => {
          const worker = await startWorker({ databaseUrl: database.url, env: workerEnv, stdio: 'pipe' });
          // Why a worker died on its own: its last error lines.
          void worker.exited.then((code) => {
            if (code === 0 || code === 128 || stopping) return;
            const lines = worker
              .output()
              .split('\n')
              .filter((line) => /"level":"error"|Error|error/.test(line));
            log(`worker exited (${code}); its last errors:\n  ${lines.slice(-5).join('\n  ')}`);
          });
          return worker;
        },
        stopping: () => stopping,
        log,
        initialDelayMs: 500,
      }),
    );
    cleanups.push(async () => {
      stopping = true;
      await Promise.all(workers.map((worker) => worker.current()?.stop()));
    });
    await until(async () => workers.every((worker) => worker.current() !== undefined), 120_000);
    log(`ready: 2 web instances, ${WORKERS} workers, ${CLIENTS} clients for ${SECONDS} s`);

    const seen: Seen = { created: new Map(), status: new Map() };
    const started = Date.now();
    const load = Promise.all(
      Array.from({ length: CLIENTS }, (_, i) => client(i, bases, secret, started + SECONDS * 1000, seen)),
    );
    const admin = () => new pg.Pool({ connectionString: database.url, max: 2 });
    let pool = admin();
    const probe = async (base: string) =>
      (await fetch(`${base}/v1/me`, { headers: { 'X-API-Key': secret }, signal: AbortSignal.timeout(5000) }).then(
        (r) => r.status,
      )) === 200;
    const anyAnswers = async () =>
      (await Promise.all(bases().map((base) => probe(base).catch(() => false)))).some(Boolean);
    const recoveries: Array<{ fault: string; seconds: number | null }> = [];
    const at = (second: number) => sleep(Math.max(0, started + second * 1000 - Date.now()));

    await at(SECONDS * 0.15);
    const killed = workers[0]!.current()!;
    log('fault: SIGKILL worker 1');
    killed.child.kill('SIGKILL');
    recoveries.push({
      fault: 'worker SIGKILL → replacement ready',
      seconds: await until(
        async () => workers[0]!.current() !== killed && workers[0]!.current()?.child.exitCode === null,
      ),
    });

    await at(SECONDS * 0.3);
    log('fault: SIGKILL web instance A');
    const webKilledAt = performance.now();
    web[0]!.child.kill('SIGKILL');
    await web[0]!.exited;
    web[0] = null;
    recoveries.push({
      fault: 'web instance SIGKILL → the API answers (other instance)',
      seconds: await until(anyAnswers),
    });
    web[0] = await startNext({ port: ports[0]!, databaseUrl: database.url, stdio: 'pipe', env: webEnv });
    recoveries.push({
      fault: 'web instance SIGKILL → answering again',
      seconds: (await until(() => probe(web[0]!.baseUrl))) === null ? null : elapsed(webKilledAt),
    });

    await at(SECONDS * 0.5);
    log('fault: PostgreSQL restart (fast shutdown)');
    await pool.end();
    let downFor = 0;
    await database.restart(async () => {
      const down = performance.now();
      await sleep(1000);
      downFor = elapsed(down);
    });
    pool = admin();
    const back = await Promise.all(bases().map((base) => until(() => probe(base))));
    recoveries.push({
      fault: `PostgreSQL restart (down ${downFor} s) → both instances answer`,
      seconds: back.some((s) => s === null) ? null : Math.max(...(back as number[])),
    });

    await at(SECONDS * 0.6);
    log('fault: webhook receiver fails for 8 s');
    receiver.fail(true);
    await sleep(8000);
    receiver.fail(false);
    const receiverBack = performance.now();

    await load;
    log(`load done: ${counts.requests} requests; waiting for every event to be delivered`);
    const missing = async () => {
      const { rows } = await pool.query<{ id: string }>(`SELECT id FROM events WHERE workspace_id = $1`, [
        workspace.id,
      ]);
      return rows.filter((row) => !receiver.received.has(row.id));
    };
    const drained = await until(async () => (await missing()).length === 0, 180_000);
    recoveries.push({
      fault: 'receiver failing 8 s → every event delivered (from its return)',
      seconds: drained === null ? null : elapsed(receiverBack),
    });

    // Checks.
    const { rows: invoices } = await pool.query<{ id: string; status: string; key: string }>(
      `SELECT id, status::text AS status, metadata->>'chaos_key' AS key FROM invoices WHERE workspace_id = $1`,
      [workspace.id],
    );
    const byKey = new Map<string, string[]>();
    for (const invoice of invoices) byKey.set(invoice.key, [...(byKey.get(invoice.key) ?? []), invoice.id]);
    const duplicatedInvoices = [...byKey.values()].filter((ids) => ids.length > 1).length;
    const stored = new Map(invoices.map((invoice) => [invoice.id, invoice.status]));
    const lostInvoices = [...seen.created.values()].filter((id) => !stored.has(id)).length;
    const wrongStatus = [...seen.status].filter(([id, status]) => stored.has(id) && stored.get(id) !== status).length;
    const { rows: transitions } = await pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM (SELECT COALESCE(snapshot->>'id', snapshot->>0), type FROM events WHERE workspace_id = $1 GROUP BY 1, 2 HAVING count(*) > 1) d`,
      [workspace.id],
    );
    const lostEvents = (await missing()).length;
    const redelivered = [...receiver.received.values()].filter((n) => n > 1).length;
    const events = (await pool.query(`SELECT 1 FROM events WHERE workspace_id = $1`, [workspace.id])).rowCount ?? 0;

    const figures = {
      database: database.kind,
      requests: counts.requests,
      attempts: counts.attempts,
      faults: 4,
      recovery_seconds: Object.fromEntries(recoveries.map((r) => [r.fault, r.seconds])),
      invoices: invoices.length,
      events,
      lost: { invoices: lostInvoices, events: lostEvents, gave_up_requests: counts.gaveUp },
      duplicated: { invoices: duplicatedInvoices, transitions: transitions[0]!.n },
      status_mismatches: wrongStatus,
      http_500: counts.status500,
      http_503: counts.status503,
      network_errors: counts.networkErrors,
      idempotent_replays: counts.replays,
      webhooks_redelivered: redelivered,
      webhooks_invalid_signature: receiver.invalid(),
      webhook_attempts_refused_by_receiver: receiver.refused(),
      worker_restarts: workers.reduce((sum, worker) => sum + worker.restarts(), 0),
    };
    console.log(JSON.stringify(figures, null, 2));
    const ok =
      lostInvoices +
        lostEvents +
        counts.gaveUp +
        duplicatedInvoices +
        transitions[0]!.n +
        wrongStatus +
        counts.status500 +
        receiver.invalid() ===
        0 && recoveries.every((r) => r.seconds !== null);
    log(ok ? 'PASS: nothing lost, nothing duplicated, no 500' : 'FAIL: see the figures above');
    await pool.end();
    process.exitCode = ok ? 0 : 1;
  } finally {
    await cleanup();
  }
}

main().catch((error: unknown) => {
  console.error(`[chaos] ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  process.exit(1);
});
