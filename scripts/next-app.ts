// Shared helpers for running the Next.js app from project scripts and the test harness:
// - ensureBuild(): `next build` only when there is no build or the sources changed since the last one
//   (a content fingerprint of the build inputs is kept in .next/source-fingerprint);
// - startNext(): spawn the app server (scripts/server.ts: Next's handler, production or dev) on a port with a
//   DATABASE_URL, wait until it answers.
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createWriteStream, existsSync, readdirSync, readFileSync, writeFileSync, type Dirent } from 'node:fs';
import path from 'node:path';

export const PROJECT_ROOT = path.resolve(import.meta.dirname, '..');
const NEXT_BIN = path.join(PROJECT_ROOT, 'node_modules', 'next', 'dist', 'bin', 'next');
// The app's own HTTP server around Next's request handler (client address, security headers): scripts/server.ts.
const SERVER_SCRIPT = path.join(PROJECT_ROOT, 'scripts', 'server.cjs');
const DIST_DIR = path.join(PROJECT_ROOT, '.next');
const FINGERPRINT_FILE = path.join(DIST_DIR, 'source-fingerprint');

// Top-level entries that are not inputs of `next build`.
const IGNORED_TOP = new Set([
  'node_modules',
  '.next',
  '.git',
  '.data',
  '.test-data',
  '.ci',
  'tests',
  'e2e',
  'scripts',
  'sdk',
  'bench',
  'test-results',
  'playwright-report',
  'coverage',
]);
const IGNORED_ANYWHERE = new Set(['node_modules', '.git', '.DS_Store']);
const IGNORED_FILES =
  /(\.test\.tsx?|\.spec\.tsx?|\.md|\.tsbuildinfo|^next-env\.d\.ts|^vitest\.config\.ts|^playwright\.config\.ts)$/;

function walk(dir: string, rel: string, out: string[]) {
  let entries: Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const entry of entries) {
    const relPath = rel ? `${rel}/${entry.name}` : entry.name;
    if (IGNORED_ANYWHERE.has(entry.name)) continue;
    if (!rel && IGNORED_TOP.has(entry.name)) continue;
    if (relPath === 'prisma/migrations') continue;
    if (entry.isDirectory()) walk(path.join(dir, entry.name), relPath, out);
    else if (entry.isFile() && !IGNORED_FILES.test(entry.name)) out.push(relPath);
  }
}

/** Content hash of everything `next build` reads from the project (sources, config, lockfile, generated client). */
export function sourceFingerprint(): string {
  const files: string[] = [];
  walk(PROJECT_ROOT, '', files);
  files.sort();
  const hash = createHash('sha256');
  hash.update(`next ${readNextVersion()}\n`);
  for (const file of files) {
    hash.update(file);
    hash.update('\0');
    hash.update(readFileSync(path.join(PROJECT_ROOT, file)));
    hash.update('\0');
  }
  return hash.digest('hex');
}

function readNextVersion(): string {
  try {
    return JSON.parse(readFileSync(path.join(PROJECT_ROOT, 'node_modules', 'next', 'package.json'), 'utf8')).version;
  } catch {
    return 'unknown';
  }
}

export function buildIsFresh(): boolean {
  if (!existsSync(path.join(DIST_DIR, 'BUILD_ID'))) return false;
  try {
    return readFileSync(FINGERPRINT_FILE, 'utf8').trim() === sourceFingerprint();
  } catch {
    return false;
  }
}

type Env = Record<string, string | undefined>;

export function childEnv(extra: Env = {}): NodeJS.ProcessEnv {
  return { ...process.env, NEXT_TELEMETRY_DISABLED: '1', ...extra } as NodeJS.ProcessEnv;
}

function runNext(args: string[], env: NodeJS.ProcessEnv, stdio: 'inherit' | 'stderr'): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [NEXT_BIN, ...args], {
      cwd: PROJECT_ROOT,
      env,
      // 'stderr': keep our stdout clean (e.g. under vitest), show the build log on stderr.
      stdio: stdio === 'inherit' ? 'inherit' : ['ignore', 2, 2],
    });
    child.on('error', reject);
    child.on('exit', (code, signal) =>
      code === 0 ? resolve() : reject(new Error(`next ${args.join(' ')} failed (${signal ?? `exit code ${code}`})`)),
    );
  });
}

/** Run `next build` unless the existing build matches the current sources. Returns true if it built. */
export async function ensureBuild(options: { force?: boolean; stdio?: 'inherit' | 'stderr' } = {}): Promise<boolean> {
  if (!options.force && buildIsFresh()) {
    console.error('[next] build is up to date');
    return false;
  }
  // npm test builds once, then runs suites side by side that each serve this build: a rebuild under them (a file
  // a test wrote changed the fingerprint) would pull the build out from under the running servers.
  if (!options.force && process.env.NEXT_BUILD_FROZEN === '1' && existsSync(path.join(DIST_DIR, 'BUILD_ID'))) {
    console.error('[next] build kept as it is (NEXT_BUILD_FROZEN=1)');
    return false;
  }
  console.error('[next] building (sources changed or no build yet)');
  const started = Date.now();
  await runNext(['build'], childEnv({ NODE_ENV: 'production' }), options.stdio ?? 'inherit');
  // Computed after the build: the first build itself writes next-env.d.ts / tsconfig.json.
  writeFileSync(FINGERPRINT_FILE, `${sourceFingerprint()}\n`);
  console.error(`[next] build finished in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return true;
}

export interface NextServer {
  baseUrl: string;
  port: number;
  child: ChildProcess;
  /** Stop the server (SIGTERM, then SIGKILL after a grace period). Idempotent. */
  stop(): Promise<void>;
  /** Resolves with the exit code when the process ends. */
  exited: Promise<number | null>;
}

export interface StartNextOptions {
  mode?: 'start' | 'dev';
  port: number;
  databaseUrl: string;
  env?: Env;
  /** 'inherit' (default) or 'pipe' (output kept and shown if startup fails). */
  stdio?: 'inherit' | 'pipe';
  /** Path polled until it answers 200 (default /api/health). */
  healthPath?: string;
  timeoutMs?: number;
  /** PUBLIC_URL for this server unless `env` sets one (test harnesses: the 127.0.0.1 address they browse). */
  publicUrl?: string;
  /** Extra flags for the node process running Next (e.g. --cpu-prof, which NODE_OPTIONS does not allow). */
  nodeArgs?: string[];
  /** With stdio 'pipe': every line the server prints is also appended here (test harnesses read it on a failure). */
  logFile?: string;
}

/** Spawn the app server (scripts/server.ts, Next in production or dev mode) and wait until healthPath answers 200. */
export async function startNext(options: StartNextOptions): Promise<NextServer> {
  const { port, mode = 'start' } = options;
  const env: Env = childEnv({
    ...options.env,
    DATABASE_URL: options.databaseUrl,
    PORT: String(port),
    // Links, redirects and cookies follow PUBLIC_URL, never request headers (lib/env.ts).
    ...(options.publicUrl && !options.env?.PUBLIC_URL ? { PUBLIC_URL: options.publicUrl } : {}),
    ...(mode === 'start' ? { NODE_ENV: 'production' } : {}),
  });
  if (mode === 'dev') delete env.NODE_ENV;
  const args = [...(options.nodeArgs ?? []), SERVER_SCRIPT, ...(mode === 'dev' ? ['--dev'] : [])];
  const child = spawn(process.execPath, args, {
    cwd: PROJECT_ROOT,
    env: env as NodeJS.ProcessEnv,
    stdio: options.stdio === 'pipe' ? ['ignore', 'pipe', 'pipe'] : 'inherit',
  });
  let output = '';
  const log = options.logFile ? createWriteStream(options.logFile, { flags: 'a' }) : undefined;
  const keep = (d: Buffer) => {
    output = (output + d.toString()).slice(-20_000);
    log?.write(d);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<number | null>((resolve) => {
    child.once('exit', (code, signal) => resolve(code ?? (signal ? 128 : null)));
    child.once('error', () => resolve(1));
  });
  let exitedAlready = false;
  void exited.then(() => {
    exitedAlready = true;
    log?.end();
  });

  const stop = async () => {
    if (exitedAlready || child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  };

  const baseUrl = `http://127.0.0.1:${port}`;
  const healthUrl = `${baseUrl}${options.healthPath ?? '/api/health'}`;
  const deadline = Date.now() + (options.timeoutMs ?? 120_000);
  for (;;) {
    if (exitedAlready) throw new Error(`next ${mode} exited before it answered ${healthUrl}\n${output}`);
    try {
      const res = await fetch(healthUrl, { signal: AbortSignal.timeout(5_000) });
      if (res.status === 200) break;
    } catch {
      // not up yet
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`next ${mode} did not answer ${healthUrl} with 200 in time\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return { baseUrl, port, child, stop, exited };
}
