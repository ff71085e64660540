// The embedded server's password: random, generated once, kept beside the data directory (`.data/postgres` →
// `.data/postgres-password`, mode 0600), so every project command that attaches (start, dev, worker, admin,
// db:migrate, bench, tests) reads the same one through resolveDatabaseUrl()/ensureEmbeddedDatabase().
//
// Data directories made before this existed use the well-known password `postgres`; adoptPassword() replaces it
// without touching the data. The new password is first written to `<file>.new`, set in the server, then renamed
// into place, so a command interrupted half-way converges on the next run.
import { randomBytes } from 'node:crypto';
import { chmodSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export const DATABASE_USER = 'postgres';
/** What every embedded data directory used before passwords were generated; refused once adopted. */
export const LEGACY_PASSWORD = 'postgres';

export function passwordFile(requestedDataDir: string): string {
  return path.join(path.dirname(requestedDataDir), `${path.basename(requestedDataDir)}-password`);
}

function read(file: string): string | null {
  try {
    const value = readFileSync(file, 'utf8').trim();
    if (!value) return null;
    chmodSync(file, 0o600);
    return value;
  } catch {
    return null;
  }
}

function create(file: string): string {
  try {
    writeFileSync(file, `${randomBytes(24).toString('base64url')}\n`, { flag: 'wx', mode: 0o600 });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  const value = read(file);
  if (!value) throw new Error(`${file} is empty; delete it to generate a new password`);
  return value;
}

/** The stored password, or null when this data directory has none yet (new, or made with the legacy one). */
export function storedPassword(requestedDataDir: string): string | null {
  return read(passwordFile(requestedDataDir));
}

/** The password for a data directory about to be initialised: the stored one, or a new one. */
export function passwordForNewCluster(requestedDataDir: string): string {
  return create(passwordFile(requestedDataDir));
}

/**
 * Replace the legacy password of an existing data directory: `apply(newPassword)` must set it in the server
 * (it may be called again with the same value after an interruption).
 */
export async function adoptPassword(
  requestedDataDir: string,
  apply: (password: string) => Promise<void>,
): Promise<string> {
  const file = passwordFile(requestedDataDir);
  const stored = read(file);
  if (stored) return stored;
  const pending = create(`${file}.new`);
  await apply(pending);
  renameSync(`${file}.new`, file);
  return pending;
}

/** ALTER ROLE statement setting the password (random base64url: no quoting issue, checked anyway). */
export function setPasswordStatement(password: string): string {
  if (!/^[A-Za-z0-9_-]+$/.test(password)) throw new Error('unexpected characters in the generated password');
  return `ALTER ROLE ${DATABASE_USER} PASSWORD '${password}'`;
}
