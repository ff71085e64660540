import { recordSignIn, recordUserAudit } from '../audit/sign-in';
import type { AuditActor } from '../audit/audit';
import { db } from '../db';
import { newId } from '../ids';

/** Portal sessions live 7 days at most; the cookie carries the id, this table decides whether it still counts. */
export const SESSION_MAX_AGE_SECONDS = 7 * 24 * 60 * 60;
/** An OAuth sign-in waiting for its two-factor code is dropped after this long. */
export const SECOND_FACTOR_PENDING_SECONDS = 10 * 60;

export interface SignInFacts {
  email: string | null;
  ip: string | null;
  secondFactor?: 'totp' | 'recovery_code' | null;
  /** 'credentials' (default) or the OAuth provider id. */
  provider?: string;
  /** An OAuth sign-in of a user with two-factor on: the session authenticates nothing until the code is entered. */
  secondFactorPending?: boolean;
}

/**
 * A sign-in: the session row and its audit entries (lib/audit) commit together. A session still waiting for its
 * second factor records its sign-in when the code is entered (lib/auth/oauth-second-factor.ts).
 */
export async function createSession(
  userId: string,
  now = new Date(),
  signIn: SignInFacts = { email: null, ip: null },
): Promise<{ id: string; expiresAt: Date }> {
  const id = newId('session');
  const expiresAt = new Date(now.getTime() + SESSION_MAX_AGE_SECONDS * 1000);
  const pending = signIn.secondFactorPending === true;
  await db().$transaction(async (tx) => {
    await tx.session.create({
      data: {
        id,
        userId,
        expiresAt,
        createdAt: now,
        authProvider: signIn.provider ?? 'credentials',
        secondFactorPending: pending,
      },
    });
    if (!pending) await recordSignIn(tx, { id: userId, ...signIn });
  });
  return { id, expiresAt };
}

export type SessionState = 'live' | 'second_factor_pending' | 'ended';

/**
 * 'live' only when the row exists, belongs to the user, is not revoked, has not expired and is not waiting for a
 * second factor; 'second_factor_pending' while an OAuth sign-in waits for its code (within its short window).
 */
export async function sessionState(sessionId: string, userId: string, now = new Date()): Promise<SessionState> {
  const row = await db().session.findUnique({
    where: { id: sessionId },
    select: { userId: true, revokedAt: true, expiresAt: true, createdAt: true, secondFactorPending: true },
  });
  if (!row || row.userId !== userId || row.revokedAt !== null || row.expiresAt.getTime() <= now.getTime())
    return 'ended';
  if (!row.secondFactorPending) return 'live';
  return now.getTime() - row.createdAt.getTime() < SECOND_FACTOR_PENDING_SECONDS * 1000
    ? 'second_factor_pending'
    : 'ended';
}

/** True only for a live session (see sessionState). */
export async function isSessionLive(sessionId: string, userId: string, now = new Date()): Promise<boolean> {
  return (await sessionState(sessionId, userId, now)) === 'live';
}

/** Sign-out: the cookie may still exist somewhere, but it no longer authenticates anything. */
export async function revokeSession(sessionId: string, now = new Date()): Promise<void> {
  await db().session.updateMany({ where: { id: sessionId, revokedAt: null }, data: { revokedAt: now } });
}

/**
 * Ends every live session of the user except `keepSessionId` — password and GitHub sign-ins alike — and records
 * `user.signed_out_everywhere` ("Sign out everywhere" on the Account page; a password change does the same).
 */
export async function revokeOtherSessions(
  userId: string,
  keepSessionId: string,
  actor?: AuditActor,
  now = new Date(),
): Promise<number> {
  return db().$transaction(async (tx) => {
    const result = await tx.session.updateMany({
      where: { userId, revokedAt: null, id: { not: keepSessionId } },
      data: { revokedAt: now },
    });
    if (actor)
      await recordUserAudit(tx, userId, {
        action: 'user.signed_out_everywhere',
        actor,
        details: { ended_sessions: result.count },
      });
    return result.count;
  });
}
