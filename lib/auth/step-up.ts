import type { AuditActor } from '../audit/audit';
import { recordUserAudit } from '../audit/sign-in';
import { db, type Prisma } from '../db';
import { AppError } from '../errors';
import { verifyPassword } from './password';
import { freshSignInProves } from './providers';
import { verifySecondFactor } from './second-factor';
import { beginUserProof, userProofSucceeded } from './throttle';
import { stepUpProofText } from './step-up-copy';

/**
 * Step-up re-authentication ("sudo mode"). A portal session alone may read everything, but changes that send
 * money or grant live API access — setting or removing a payout wallet, creating or rolling a live key — and
 * turning two-factor sign-in on or off need fresh proof of identity, given on this session within the last
 * STEP_UP_WINDOW_SECONDS. Whoever steals a session cookie cannot redirect payouts without the password.
 *
 * The proof is stored on the server-side session row (sessions.stepped_up_at), never in the cookie or a form:
 * another session of the same user, or a forged request, carries none. The domain functions check it inside
 * their own transaction (requireStepUp), so every caller — any server action, however it is called — is held
 * to it; the operator CLI (no portal user) is not.
 *
 * What counts as proof, per account:
 *  - password account: the password again, plus a TOTP or recovery code when two-factor sign-in is on;
 *  - account without a password (GitHub only) with two-factor on: a TOTP or recovery code;
 *  - a sign-in on this session within the window only through a provider that was made to re-authenticate
 *    (lib/auth/providers.ts). GitHub cannot be, so a GitHub-only account without two-factor can make no protected
 *    change, with one exception: turning two-factor on — its first factor — accepts a GitHub sign-in on this
 *    session within the window (`firstFactor`), and is recorded and shown under "Recent security changes".
 *    docs/portal.md ("Signing in with GitHub") explains it.
 */
export const STEP_UP_WINDOW_SECONDS = 5 * 60;

export type StepUpMethod =
  'password' | 'password+totp' | 'password+recovery_code' | 'totp' | 'recovery_code' | 'recent_sign_in';

export interface StepUpProof {
  method: StepUpMethod;
  /** When the proof was given; it counts until at + STEP_UP_WINDOW_SECONDS. */
  at: Date;
}

/** What a user can prove: decides the step-up form (password field, code field, or "sign in with GitHub again"). */
export interface StepUpMethods {
  password: boolean;
  totp: boolean;
}

export async function stepUpMethods(userId: string): Promise<StepUpMethods> {
  const user = await db().user.findUnique({
    where: { id: userId },
    select: { passwordHash: true, totpEnabledAt: true },
  });
  return { password: Boolean(user?.passwordHash), totp: Boolean(user?.totpEnabledAt) };
}

function windowStart(now: Date): Date {
  return new Date(now.getTime() - STEP_UP_WINDOW_SECONDS * 1000);
}

/** step_up_required's message: what this account must type (its password, a code, or both). */
function requiredMessage(user: SessionProofRow['user'] | null): string {
  const methods = user ? { password: Boolean(user.passwordHash), totp: Boolean(user.totpEnabledAt) } : null;
  return `Confirm it is you: this change needs ${stepUpProofText(methods)} again (valid ${STEP_UP_WINDOW_SECONDS / 60} minutes).`;
}

type SessionProofRow = {
  userId: string;
  createdAt: Date;
  expiresAt: Date;
  revokedAt: Date | null;
  steppedUpAt: Date | null;
  stepUpMethod: string | null;
  authProvider: string;
  secondFactorPending: boolean;
  user: { passwordHash: string | null; totpEnabledAt: Date | null };
};

/** What else counts: `firstFactor` — the change adds the first factor of an account that has none (two-factor on). */
export interface StepUpOptions {
  firstFactor?: boolean;
}

function proofOf(row: SessionProofRow, now: Date, options: StepUpOptions = {}): StepUpProof | null {
  const since = windowStart(now);
  if (row.steppedUpAt && row.steppedUpAt > since && row.steppedUpAt <= now) {
    return { method: (row.stepUpMethod ?? 'password') as StepUpMethod, at: row.steppedUpAt };
  }
  const freshOAuthSignIn = row.authProvider !== 'credentials' && row.createdAt > since && row.createdAt <= now;
  if (!freshOAuthSignIn) return null;
  // A provider that was made to re-authenticate: as good as typing the password.
  if (freshSignInProves(row.authProvider)) return { method: 'recent_sign_in', at: row.createdAt };
  // Otherwise only to add the first factor of an account with nothing to type (GitHub only, no two-factor).
  if (options.firstFactor && !row.user.passwordHash && !row.user.totpEnabledAt)
    return { method: 'recent_sign_in', at: row.createdAt };
  return null;
}

async function readSession(
  client: Pick<Prisma.TransactionClient, 'session'>,
  sessionId: string,
): Promise<SessionProofRow | null> {
  return client.session.findUnique({
    where: { id: sessionId },
    select: {
      userId: true,
      createdAt: true,
      expiresAt: true,
      revokedAt: true,
      steppedUpAt: true,
      stepUpMethod: true,
      authProvider: true,
      secondFactorPending: true,
      user: { select: { passwordHash: true, totpEnabledAt: true } },
    },
  });
}

function isLive(row: SessionProofRow | null, userId: string, now: Date): row is SessionProofRow {
  return !!row && row.userId === userId && row.revokedAt === null && row.expiresAt > now && !row.secondFactorPending;
}

/**
 * The gate of every protected change, called inside the change's transaction. Operator and system actors (no
 * portal user) pass with null. A person's change passes only with a live session of that person that has a
 * proof within the window; otherwise step_up_required, and the transaction changes nothing.
 */
export async function requireStepUp(
  tx: Pick<Prisma.TransactionClient, 'session'>,
  actor: AuditActor,
  now = new Date(),
  options: StepUpOptions = {},
): Promise<StepUpProof | null> {
  if (actor.userId === null) return null;
  const row = actor.sessionId ? await readSession(tx, actor.sessionId) : null;
  const proof = isLive(row, actor.userId, now) ? proofOf(row, now, options) : null;
  if (!proof) throw new AppError('step_up_required', requiredMessage(row?.userId === actor.userId ? row.user : null));
  return proof;
}

/** Until when this session's step-up counts (null: none now). For the UI only; the gate is requireStepUp. */
export async function stepUpActiveUntil(
  sessionId: string,
  userId: string,
  now = new Date(),
  options: StepUpOptions = {},
): Promise<Date | null> {
  const row = await readSession(db(), sessionId);
  const proof = isLive(row, userId, now) ? proofOf(row, now, options) : null;
  return proof ? new Date(proof.at.getTime() + STEP_UP_WINDOW_SECONDS * 1000) : null;
}

function failed(message: string, path?: 'password' | 'code'): AppError {
  return new AppError('step_up_failed', message, path ? { errors: [{ path, message }] } : {});
}

/**
 * Gives this session a step-up: checks the password (and the second factor when two-factor sign-in is on),
 * then stamps the session row and records `user.stepped_up` in the same transaction. Password guesses through
 * this form are throttled per user (`reauth`, lib/auth/throttle.ts), codes per user (`second_factor`).
 */
export async function stepUp(
  input: { actor: AuditActor & { userId: string; sessionId: string }; password?: string; code?: string },
  now = new Date(),
): Promise<{ until: Date; method: StepUpMethod }> {
  const { actor } = input;
  const user = await db().user.findUnique({
    where: { id: actor.userId },
    select: { passwordHash: true, totpEnabledAt: true },
  });
  if (!user) throw failed('This account no longer exists.');
  // Checked before any password or code is looked at (and a one-time code used up): a session that has ended, or
  // one still waiting for its two-factor code, can never be given a step-up.
  const usable = await db().session.count({
    where: {
      id: actor.sessionId,
      userId: actor.userId,
      revokedAt: null,
      expiresAt: { gt: now },
      secondFactorPending: false,
    },
  });
  if (usable !== 1) throw failed('This session has ended. Sign in again.');
  if (!user.passwordHash && !user.totpEnabledAt) {
    throw failed(
      'This account has no password and no two-factor sign-in, so there is nothing to confirm with. Turn on two-factor sign-in on the Account page (right after signing in with GitHub), then repeat the change.',
    );
  }

  let method: StepUpMethod;
  if (user.passwordHash) {
    if (!(await beginUserProof('reauth', actor.userId, now))) {
      throw new AppError('too_many_attempts', 'Too many wrong passwords. Wait 15 minutes and try again.');
    }
    if (!input.password || !(await verifyPassword(user.passwordHash, input.password)))
      throw failed('The password is not correct.', 'password');
    await userProofSucceeded('reauth', actor.userId);
    method = 'password';
  } else {
    method = 'totp';
  }
  if (user.totpEnabledAt) {
    if (!input.code?.trim()) throw failed('Enter the code from your authenticator app (or a recovery code).', 'code');
    const second = await verifySecondFactor(actor.userId, input.code, now);
    if (!second.ok) {
      if (second.reason === 'throttled')
        throw new AppError('too_many_attempts', 'Too many wrong codes. Wait 15 minutes and try again.');
      throw failed('The code is not correct, or was already used.', 'code');
    }
    method = user.passwordHash ? (`password+${second.factor}` as StepUpMethod) : second.factor;
  }

  await db().$transaction(async (tx) => {
    const stamped = await tx.session.updateMany({
      where: {
        id: actor.sessionId,
        userId: actor.userId,
        revokedAt: null,
        expiresAt: { gt: now },
        secondFactorPending: false,
      },
      data: { steppedUpAt: now, stepUpMethod: method },
    });
    if (stamped.count !== 1) throw failed('This session has ended. Sign in again.');
    await recordUserAudit(tx, actor.userId, {
      action: 'user.stepped_up',
      actor,
      details: { method, valid_minutes: STEP_UP_WINDOW_SECONDS / 60 },
    });
  });
  return { until: new Date(now.getTime() + STEP_UP_WINDOW_SECONDS * 1000), method };
}

/** What a protected change's audit row says about its proof: `step_up: "password+totp"` (none for the operator). */
export function stepUpDetail(proof: StepUpProof | null): { step_up?: StepUpMethod } {
  return proof ? { step_up: proof.method } : {};
}
