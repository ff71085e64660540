import { recordSignIn } from '../audit/sign-in';
import { db } from '../db';
import { newId } from '../ids';

/** Portal sessions live 7 days at most; the cookie carries the id, this table decides whether it still counts. */
export const SESSION_MAX_AGE_SECONDS = 7 * 24 * 60 * 60;

/** A sign-in: the session row and its audit entries (lib/audit) commit together. */
export async function createSession(
  userId: string,
  now = new Date(),
  signIn: { email: string | null; ip: string | null; secondFactor?: 'totp' | 'recovery_code' | null } = { email: null, ip: null },
): Promise<{ id: string; expiresAt: Date }> {
  const id = newId('session');
  const expiresAt = new Date(now.getTime() + SESSION_MAX_AGE_SECONDS * 1000);
  await db().$transaction(async (tx) => {
    await tx.session.create({ data: { id, userId, expiresAt, createdAt: now } });
    await recordSignIn(tx, { id: userId, ...signIn });
  });
  return { id, expiresAt };
}

/** True only when the row exists, belongs to the user, is not revoked and has not expired. */
export async function isSessionLive(sessionId: string, userId: string, now = new Date()): Promise<boolean> {
  const row = await db().session.findUnique({ where: { id: sessionId }, select: { userId: true, revokedAt: true, expiresAt: true } });
  return !!row && row.userId === userId && row.revokedAt === null && row.expiresAt.getTime() > now.getTime();
}

/** Sign-out: the cookie may still exist somewhere, but it no longer authenticates anything. */
export async function revokeSession(sessionId: string, now = new Date()): Promise<void> {
  await db().session.updateMany({ where: { id: sessionId, revokedAt: null }, data: { revokedAt: now } });
}

/** Ends every live session of the user except `keepSessionId` (after a password change: other devices sign in again). */
export async function revokeOtherSessions(userId: string, keepSessionId: string, now = new Date()): Promise<number> {
  const result = await db().session.updateMany({ where: { userId, revokedAt: null, id: { not: keepSessionId } }, data: { revokedAt: now } });
  return result.count;
}
