// `npm start` / `npm run dev`:
//   1. DATABASE_URL, or the embedded PostgreSQL under .data/postgres (attached if already running, else started);
//   2. apply pending migrations;
//   3. (start only) `next build` when there is no build or the sources changed since the last one;
//   4. run `next start` (or `next dev`) on PORT (default 3000) with DATABASE_URL in its environment, and the
//      worker (scripts/worker.ts: webhooks, expiry events, chain watchers) beside it; a worker that dies is
//      restarted with back-off, and the log says so (scripts/worker-supervisor.ts). `npm run dev` allows webhooks to local receivers (WEBHOOK_ALLOW_PRIVATE_NETWORKS=true).
// Signals are forwarded to Next; when Next exits, an embedded server started by this process is stopped
// (one attached to is left running).
import { readFileSync } from 'node:fs';
import net from 'node:net';
import { resolveDatabaseUrl, type ResolvedDatabase } from './db/embedded';
import { migrate } from './db/migrate';
import { ensureBuild, startNext, type NextServer } from './next-app';
import { startWorker } from './worker-process';
import { superviseWorker, type Supervisor } from './worker-supervisor';

const dev = process.argv.includes('--dev');
const port = Number(process.env.PORT || 3000);

let db: ResolvedDatabase | undefined;
let server: NextServer | undefined;
let workers: Supervisor | undefined;
let shuttingDown = false;
let signalsReceived = 0;

async function shutdown(code: number): Promise<never> {
  if (!shuttingDown) {
    shuttingDown = true;
    try {
      await Promise.all([server?.stop(), workers?.current()?.stop()]);
    } catch (err) {
      console.error(err);
    }
    try {
      await db?.release();
    } catch (err) {
      console.error('[start] could not stop the embedded database:', err);
    }
  }
  process.exit(code);
}

for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
  process.on(signal, () => {
    signalsReceived++;
    if (signalsReceived > 1) {
      server?.child.kill('SIGKILL');
      workers?.current()?.child.kill('SIGKILL');
      return;
    }
    // Next usually got the same SIGINT from the terminal; send it anyway (kill <pid> reaches only us).
    if (server && server.child.exitCode === null) server.child.kill(signal);
    void shutdown(0);
  });
}

/**
 * `kill <pid of npm>` makes npm forward SIGTERM to its `sh -c` child only; the shell dies without passing it on,
 * and this process (below sh and the tsx launcher) would be orphaned with Next and the database still running.
 * So watch the launcher chain (parent, grandparent, great-grandparent) and shut down when any of it is gone.
 */
function ancestors(depth: number): number[] {
  const pids: number[] = [];
  let pid = process.ppid;
  for (let i = 0; i < depth && pid > 1; i++) {
    pids.push(pid);
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      pid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    } catch {
      break;
    }
  }
  return pids;
}

function alive(pid: number) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

const watched = ancestors(3);
setInterval(() => {
  if (!shuttingDown && watched.some((pid) => !alive(pid))) {
    console.error('[start] launcher exited; shutting down');
    if (server && server.child.exitCode === null) server.child.kill('SIGTERM');
    void shutdown(0);
  }
}, 1000).unref();

/** Whether `next start -p port` could listen: the same bind (all interfaces) Next makes. */
function portIsTaken(port: number): Promise<boolean> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', (err: NodeJS.ErrnoException) => (err.code === 'EADDRINUSE' ? resolve(true) : reject(err)));
    probe.listen(port, () => probe.close(() => resolve(false)));
  });
}

async function main() {
  // Before anything else (and long before "ready"): a second `npm start` must not attach to the first one's
  // database, build, and then find the port taken when Next tries to listen.
  if (await portIsTaken(port)) {
    console.error(
      `[start] port ${port} is already in use (is the app already running?); choose another with PORT=<port> npm ${dev ? 'run dev' : 'start'}`,
    );
    process.exit(1);
  }
  db = await resolveDatabaseUrl();
  await migrate(db.url);
  if (!dev) await ensureBuild();
  if (shuttingDown) return;
  const devEnv: Record<string, string> =
    dev && process.env.WEBHOOK_ALLOW_PRIVATE_NETWORKS === undefined ? { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' } : {};
  server = await startNext({ mode: dev ? 'dev' : 'start', port, databaseUrl: db.url, timeoutMs: 600_000, env: devEnv });
  // The worker renders events (hosted_url) with the same public origin as Next: PUBLIC_URL, or localhost:PORT.
  const databaseUrl = db.url;
  const workerEnv = { ...devEnv, PORT: String(port) };
  workers = superviseWorker({
    start: () => startWorker({ databaseUrl, env: workerEnv, stdio: 'inherit' }),
    stopping: () => shuttingDown,
  });
  // The first worker's start-up, before "ready" (a failed one is retried by the supervisor).
  while (!workers.current() && workers.restarts() === 0 && !shuttingDown)
    await new Promise((resolve) => setTimeout(resolve, 100));
  console.error(
    `[start] ready on ${server.baseUrl}${db.embedded ? ` (embedded PostgreSQL on port ${db.embedded.port})` : ''}, worker running`,
  );
  // Say which webhook rule is on: a refused local receiver under `npm start` is the first thing a developer meets.
  const privateAllowed =
    (devEnv.WEBHOOK_ALLOW_PRIVATE_NETWORKS ?? process.env.WEBHOOK_ALLOW_PRIVATE_NETWORKS) === 'true';
  console.error(
    privateAllowed
      ? '[start] webhooks may go to local receivers (WEBHOOK_ALLOW_PRIVATE_NETWORKS=true): for development only'
      : '[start] webhooks go to public addresses only; npm run dev (or WEBHOOK_ALLOW_PRIVATE_NETWORKS=true) allows local receivers — README, "Test webhooks locally"',
  );
  const code = await server.exited;
  if (!shuttingDown) {
    console.error(`[start] next exited (${code}); shutting down`);
    await shutdown(code ?? 1);
  }
}

main().catch(async (err) => {
  console.error(`[start] ${err instanceof Error ? err.message : String(err)}`);
  await shutdown(1);
});
