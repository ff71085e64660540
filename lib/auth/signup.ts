import { db } from '../db';
import { env } from '../env';
import { AppError } from '../errors';
import { createUserWithWorkspace, SignUpInput } from '../workspaces/workspaces';
import { hashPassword } from './password';
import { takeSignUpSlot } from './throttle';

/**
 * Portal sign-up. Decision (docs/portal.md, "Sign-up answers the same"): the answer never says whether the
 * email already has an account. A new email gets a user and workspace; an existing one is left untouched,
 * after the same argon2 work. Either way the form then signs in with the password just typed: that works for
 * a new account, or for an existing one only with its real password (the owner, who proved it). Telling the
 * two apart therefore costs a throttled sign-in attempt, never a free sign-up probe. There is no email
 * delivery to send a "check your inbox" message through.
 *
 * Throttled per client address (SIGNUP_LIMIT_PER_HOUR): each call is argon2 work.
 */
export async function signUpFromPortal(input: SignUpInput, address: string | null): Promise<void> {
  const parsed = SignUpInput.parse(input);
  if (!(await takeSignUpSlot(address, env().SIGNUP_LIMIT_PER_HOUR))) {
    throw new AppError('too_many_attempts', 'Too many sign-ups from your network. Try again in an hour.');
  }
  const existing = await db().user.findUnique({ where: { email: parsed.email }, select: { id: true } });
  if (existing) {
    await hashPassword(parsed.password); // the same work as creating the account
    return;
  }
  try {
    await createUserWithWorkspace(parsed);
  } catch (error) {
    // Registered a moment ago by a concurrent request: the same answer as any existing email.
    if (error instanceof AppError && error.code === 'email_taken') return;
    throw error;
  }
}
