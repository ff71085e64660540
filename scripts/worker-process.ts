// Spawns the worker (scripts/worker.ts) as a child process and waits until it reports ready: used by `npm start`,
// the test harnesses and the benchmark, so all of them run the same worker the same way.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { childEnv, PROJECT_ROOT } from './next-app';

export interface WorkerProcess {
  child: ChildProcess;
  /** SIGTERM (graceful: running jobs finish or are released), SIGKILL after 15 s. Idempotent. */
  stop(): Promise<void>;
  /** SIGKILL at once: a crash, for tests. */
  kill(): Promise<void>;
  exited: Promise<number | null>;
  /** Everything the worker printed so far (when stdio is 'pipe'). */
  output(): string;
}

export interface StartWorkerOptions {
  databaseUrl: string;
  env?: Record<string, string | undefined>;
  stdio?: 'inherit' | 'pipe';
  /** The caller already migrated the database. */
  skipMigrate?: boolean;
  timeoutMs?: number;
  /** Extra Node.js flags (e.g. --cpu-prof for the benchmark's profile). */
  nodeArgs?: string[];
}

export async function startWorker(options: StartWorkerOptions): Promise<WorkerProcess> {
  // `node --import tsx` (not the tsx CLI, which runs the script in a grandchild): one process, so a signal
  // — SIGKILL included — reaches the worker itself.
  const child = spawn(
    process.execPath,
    [...(options.nodeArgs ?? []), '--import', 'tsx', path.join(PROJECT_ROOT, 'scripts', 'worker.ts')],
    {
      cwd: PROJECT_ROOT,
      env: childEnv({
        ...options.env,
        DATABASE_URL: options.databaseUrl,
        WORKER_SKIP_MIGRATE: options.skipMigrate === false ? 'false' : 'true',
      }),
      stdio: ['ignore', options.stdio === 'inherit' ? 'inherit' : 'pipe', 'pipe'],
    },
  );
  let output = '';
  let ready: () => void = () => undefined;
  const readyPromise = new Promise<void>((resolve) => (ready = resolve));
  const keep = (data: Buffer) => {
    const text = data.toString();
    if (options.stdio === 'inherit') process.stderr.write(text);
    output = (output + text).slice(-50_000);
    if (output.includes('"event":"worker_ready"')) ready();
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<number | null>((resolve) => {
    child.once('exit', (code, signal) => resolve(code ?? (signal ? 128 : null)));
    child.once('error', () => resolve(1));
  });
  const alive = () => child.exitCode === null && child.signalCode === null;
  const stop = async () => {
    if (!alive()) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    await exited;
    clearTimeout(timer);
  };
  const kill = async () => {
    if (!alive()) return;
    child.kill('SIGKILL');
    await exited;
  };
  const timeout = new Promise<'timeout'>((resolve) =>
    setTimeout(() => resolve('timeout'), options.timeoutMs ?? 60_000).unref(),
  );
  const outcome = await Promise.race([
    readyPromise.then(() => 'ready' as const),
    exited.then(() => 'exited' as const),
    timeout,
  ]);
  if (outcome !== 'ready') {
    await kill();
    throw new Error(`worker ${outcome === 'exited' ? 'exited' : 'did not become ready'} during start-up\n${output}`);
  }
  return { child, stop, kill, exited, output: () => output };
}
