import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { env } from './env';

/**
 * A secret that configuration may set and that `npm start` must not need: when `fromEnv` is unset, 32 random
 * bytes are generated on first use into .data/<name> (mode 0600, git-ignored), so several processes started
 * from the same directory (web server, worker) share it — the first writer wins (`wx`). Returned as base64url.
 */
const cached = new Map<string, string>();

export function localSecret(name: string, fromEnv: string | undefined): string {
  if (fromEnv) return fromEnv;
  const known = cached.get(name);
  if (known) return known;
  const file = path.join(env().AUTH_SECRET_DIR ?? path.join(process.cwd(), '.data'), name);
  let value = readIfPresent(file);
  if (!value) {
    mkdirSync(path.dirname(file), { recursive: true });
    try {
      writeFileSync(file, `${randomBytes(32).toString('base64url')}\n`, { flag: 'wx', mode: 0o600 });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    value = readIfPresent(file);
  }
  if (!value) throw new Error(`could not read or create ${file}`);
  cached.set(name, value);
  return value;
}

function readIfPresent(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8').trim() || undefined;
  } catch {
    return undefined;
  }
}
