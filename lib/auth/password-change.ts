import { db } from '../db';
import { AppError } from '../errors';
import { hashPassword, NewPassword, verifyPassword } from './password';
import { verifySecondFactor } from './second-factor';
import { beginUserProof, userProofSucceeded } from './throttle';

/**
 * Changes a signed-in user's password: the current password is required (a session alone is not proof), the
 * new one must pass NewPassword (length, not common), and every OTHER session of the user ends in the same
 * transaction as the new hash, so a stolen session cookie stops working once the owner changes the password.
 * With two-factor sign-in on, a code is required too: a stolen session plus a leaked password must not be enough
 * to change the password and sign the owner out everywhere.
 */
export async function changePassword(input: {
  userId: string;
  keepSessionId: string;
  currentPassword: string;
  newPassword: string;
  code?: string;
}): Promise<{ endedSessions: number }> {
  const newPassword = NewPassword.parse(input.newPassword);
  const user = await db().user.findUnique({
    where: { id: input.userId },
    select: { passwordHash: true, totpEnabledAt: true },
  });
  if (!user?.passwordHash) {
    throw new AppError(
      'current_password_incorrect',
      'This account signs in through an OAuth provider and has no password to change.',
    );
  }
  // The same per-user budget as the step-up form: a stolen session cannot guess the password here instead.
  if (!(await beginUserProof('reauth', input.userId))) {
    throw new AppError('too_many_attempts', 'Too many wrong passwords. Wait 15 minutes and try again.');
  }
  if (!(await verifyPassword(user.passwordHash, input.currentPassword))) {
    throw new AppError('current_password_incorrect', 'The current password is not correct.', {
      errors: [{ path: 'currentPassword', message: 'The current password is not correct.' }],
    });
  }
  await userProofSucceeded('reauth', input.userId);
  if (user.totpEnabledAt) {
    const second = await verifySecondFactor(input.userId, input.code ?? '');
    if (!second.ok) {
      if (second.reason === 'throttled')
        throw new AppError('too_many_attempts', 'Too many wrong codes. Wait 15 minutes and try again.');
      throw new AppError('two_factor_code_invalid', 'The authentication code is not correct, or was already used.', {
        errors: [
          { path: 'code', message: 'Enter a current code from your authenticator app (or an unused recovery code).' },
        ],
      });
    }
  }
  const passwordHash = await hashPassword(newPassword);
  const [, ended] = await db().$transaction([
    db().user.update({ where: { id: input.userId }, data: { passwordHash }, select: { id: true } }),
    db().session.updateMany({
      where: { userId: input.userId, revokedAt: null, id: { not: input.keepSessionId } },
      data: { revokedAt: new Date() },
    }),
  ]);
  return { endedSessions: ended.count };
}
