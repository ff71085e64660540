import { db } from '../db';
import { AppError } from '../errors';
import { hashPassword, NewPassword, verifyPassword } from './password';

/**
 * Changes a signed-in user's password: the current password is required (a session alone is not proof), the
 * new one must pass NewPassword (length, not common), and every OTHER session of the user ends in the same
 * transaction as the new hash, so a stolen session cookie stops working once the owner changes the password.
 */
export async function changePassword(input: {
  userId: string;
  keepSessionId: string;
  currentPassword: string;
  newPassword: string;
}): Promise<{ endedSessions: number }> {
  const newPassword = NewPassword.parse(input.newPassword);
  const user = await db().user.findUnique({ where: { id: input.userId }, select: { passwordHash: true } });
  if (!user?.passwordHash) {
    throw new AppError('current_password_incorrect', 'This account signs in through an OAuth provider and has no password to change.');
  }
  if (!(await verifyPassword(user.passwordHash, input.currentPassword))) {
    throw new AppError('current_password_incorrect', 'The current password is not correct.', {
      errors: [{ path: 'currentPassword', message: 'The current password is not correct.' }],
    });
  }
  const passwordHash = await hashPassword(newPassword);
  const [, ended] = await db().$transaction([
    db().user.update({ where: { id: input.userId }, data: { passwordHash }, select: { id: true } }),
    db().session.updateMany({ where: { userId: input.userId, revokedAt: null, id: { not: input.keepSessionId } }, data: { revokedAt: new Date() } }),
  ]);
  return { endedSessions: ended.count };
}
