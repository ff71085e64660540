import { setTimeout as sleep } from 'node:timers/promises';
import { db } from '../db';
import { hashPassword, PASSWORD_MAX_LENGTH, verifyPassword } from './password';
import { verifySecondFactor, type SecondFactor } from './second-factor';
import { beginLoginAttempt, loginFailed, loginSucceeded } from './throttle';

export type CredentialsResult =
  | { outcome: 'ok'; user: { id: string; email: string }; secondFactor: SecondFactor | null }
  | { outcome: 'invalid' }
  | { outcome: 'throttled' }
  /** Right password, two-factor sign-in on, no code given: the form asks for one. */
  | { outcome: 'code_required' }
  /** Right password, wrong (or reused) code. */
  | { outcome: 'code_invalid' };

let dummyHash: Promise<string> | undefined;

/** An argon2 hash of nothing anyone knows: verifying against it costs what a real verification costs. */
export function timingDummyHash(): Promise<string> {
  dummyHash ??= hashPassword('not-a-real-password-only-for-timing');
  return dummyHash;
}

export function normalizeEmail(raw: string): string {
  return raw.trim().toLowerCase();
}

/**
 * Checks an email + password sign-in from a client address (lib/http/client-address.ts; null when unknown).
 * Unknown emails, and OAuth-only users (no password), cost the same argon2 verification as known ones and get
 * the same answer, so neither the message nor the timing tells which part was wrong. Throttling: throttle.ts.
 * With two-factor sign-in on, the right password alone is not a sign-in: `code` (TOTP or recovery code) is
 * checked only after the password, and code guesses are throttled per user (lib/auth/second-factor.ts).
 */
export async function verifyCredentials(
  rawEmail: string,
  password: string,
  address: string | null,
  code = '',
): Promise<CredentialsResult> {
  const email = normalizeEmail(rawEmail);
  if (!email || !password || password.length > PASSWORD_MAX_LENGTH) return { outcome: 'invalid' };
  const attempt = await beginLoginAttempt(email, address);
  if (!attempt.allowed) return { outcome: 'throttled' };
  if (attempt.delayMs > 0) await sleep(attempt.delayMs);
  const user = await db().user.findUnique({
    where: { email },
    select: { id: true, email: true, passwordHash: true, totpEnabledAt: true },
  });
  const ok = await verifyPassword(user?.passwordHash ?? (await timingDummyHash()), password);
  if (!user?.email || !user.passwordHash || !ok) {
    await loginFailed(email);
    return { outcome: 'invalid' };
  }
  await loginSucceeded(email, address);
  if (!user.totpEnabledAt) return { outcome: 'ok', user: { id: user.id, email: user.email }, secondFactor: null };
  if (!code.trim()) return { outcome: 'code_required' };
  const second = await verifySecondFactor(user.id, code);
  if (!second.ok) return { outcome: second.reason === 'throttled' ? 'throttled' : 'code_invalid' };
  return { outcome: 'ok', user: { id: user.id, email: user.email }, secondFactor: second.factor };
}
