import { recordSignIn } from '../audit/sign-in';
import { db } from '../db';
import { AppError } from '../errors';
import { verifySecondFactor } from './second-factor';
import { SECOND_FACTOR_PENDING_SECONDS } from './sessions';

/**
 * Two-factor sign-in applies to every way in. A GitHub sign-in of a user with two-factor on creates its session
 * marked `second_factor_pending`: the cookie exists but authenticates nothing (lib/auth/sessions.ts
 * sessionState) until a TOTP or recovery code is entered on the sign-in page within
 * SECOND_FACTOR_PENDING_SECONDS. Wrong codes count against the same per-user budget as everywhere else.
 */
export async function completeOAuthSecondFactor(
  input: { sessionId: string; userId: string; code: string; ip: string | null; email: string | null },
  now = new Date(),
): Promise<void> {
  const since = new Date(now.getTime() - SECOND_FACTOR_PENDING_SECONDS * 1000);
  const pending = await db().session.findFirst({
    where: {
      id: input.sessionId,
      userId: input.userId,
      secondFactorPending: true,
      revokedAt: null,
      createdAt: { gt: since },
    },
    select: { id: true },
  });
  if (!pending) throw new AppError('two_factor_code_invalid', 'This sign-in has expired. Sign in with GitHub again.');
  const second = await verifySecondFactor(input.userId, input.code, now);
  if (!second.ok) {
    if (second.reason === 'throttled')
      throw new AppError('too_many_attempts', 'Too many wrong codes. Wait 15 minutes and try again.');
    throw new AppError('two_factor_code_invalid', 'That code is not correct, or was already used.', {
      errors: [
        { path: 'code', message: 'Enter the current code from your authenticator app, or an unused recovery code.' },
      ],
    });
  }
  await db().$transaction(async (tx) => {
    const done = await tx.session.updateMany({
      where: { id: input.sessionId, userId: input.userId, secondFactorPending: true, revokedAt: null },
      data: { secondFactorPending: false },
    });
    if (done.count !== 1)
      throw new AppError('two_factor_code_invalid', 'This sign-in has expired. Sign in with GitHub again.');
    await recordSignIn(tx, { id: input.userId, email: input.email, ip: input.ip, secondFactor: second.factor });
  });
}
