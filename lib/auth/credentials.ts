import { db } from '../db';
import { hashPassword, PASSWORD_MAX_LENGTH, verifyPassword } from './password';
import { clearLoginFailures, isLoginThrottled, recordLoginFailure } from './throttle';

export type CredentialsResult =
  | { outcome: 'ok'; user: { id: string; email: string } }
  | { outcome: 'invalid' }
  | { outcome: 'throttled' };

let dummyHash: Promise<string> | undefined;

/**
 * Checks an email + password sign-in. Unknown emails cost the same argon2 verification as known ones and
 * give the same answer, so neither the message nor the timing tells which part was wrong.
 */
export async function verifyCredentials(rawEmail: string, password: string, ip: string): Promise<CredentialsResult> {
  const email = rawEmail.trim().toLowerCase();
  if (!email || !password || password.length > PASSWORD_MAX_LENGTH) return { outcome: 'invalid' };
  if (await isLoginThrottled(email, ip)) return { outcome: 'throttled' };
  const user = await db().user.findUnique({ where: { email }, select: { id: true, email: true, passwordHash: true } });
  dummyHash ??= hashPassword('not-a-real-password-only-for-timing');
  const ok = await verifyPassword(user?.passwordHash ?? (await dummyHash), password);
  if (!user || !ok) {
    await recordLoginFailure(email, ip);
    return { outcome: 'invalid' };
  }
  await clearLoginFailures(email);
  return { outcome: 'ok', user: { id: user.id, email: user.email } };
}
