import { hash, verify } from '@node-rs/argon2';
import { z } from 'zod';
import { weakPasswordMessage } from './password-strength';

// argon2id (algorithm 2) with OWASP's minimum: m = 19 MiB, t = 2, p = 1.
const ARGON2ID = 2;
const OPTIONS = { algorithm: ARGON2ID, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 128;

export function hashPassword(password: string): Promise<string> {
  return hash(password, OPTIONS);
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

/** A password being set (sign-up, password change, admin CLI): length bounds, then not a common/guessable one. */
export const NewPassword = z
  .string()
  .min(PASSWORD_MIN_LENGTH, `Password must be at least ${PASSWORD_MIN_LENGTH} characters`)
  .max(PASSWORD_MAX_LENGTH, `Password must be at most ${PASSWORD_MAX_LENGTH} characters`)
  .superRefine((password, ctx) => {
    const message = weakPasswordMessage(password);
    if (message) ctx.addIssue({ code: 'custom', message });
  });
