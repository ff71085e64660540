import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { env } from '../env';

/**
 * The secret that signs and encrypts portal session cookies. NEXTAUTH_SECRET wins; otherwise one is
 * generated on first use and kept in .data/auth-secret (git-ignored), so `npm start` needs no env and
 * several instances started from the same directory share it (the first writer wins, `wx`).
 */
let cached: string | undefined;

export function authSecret(): string {
  if (cached) return cached;
  const fromEnv = env().NEXTAUTH_SECRET;
  if (fromEnv) return (cached = fromEnv);
  const file = path.join(env().AUTH_SECRET_DIR ?? path.join(process.cwd(), '.data'), 'auth-secret');
  try {
    cached = readFileSync(file, 'utf8').trim();
    if (cached) return cached;
  } catch {
    // not there yet
  }
  mkdirSync(path.dirname(file), { recursive: true });
  try {
    writeFileSync(file, `${randomBytes(32).toString('base64url')}\n`, { flag: 'wx', mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  cached = readFileSync(file, 'utf8').trim();
  return cached;
}
