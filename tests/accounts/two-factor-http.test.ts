import { randomUUID } from 'node:crypto';
import { generateSync } from 'otplib';
import { describe, expect, it } from 'vitest';
import { createSession } from '@/lib/auth/sessions';
import { stepUp } from '@/lib/auth/step-up';
import { confirmEnrolment, startEnrolment } from '@/lib/auth/two-factor';
import { createUserWithWorkspace } from '@/lib/workspaces/workspaces';
import { baseUrl } from '../support/http';
import { portalSignIn } from '../support/portal-sign-in';

// TOTP two-factor sign-in through the real next-auth credentials endpoint of the running server.

const PASSWORD = 'correct horse battery';

function code(secret: string, steps = 0): string {
  return generateSync({ secret, epoch: Math.floor((Date.now() + steps * 30_000) / 1000) });
}

/** A user with two-factor on (enrolled through the domain functions the Account page calls). */
async function enrolledUser() {
  const email = `totp-http-${randomUUID()}@example.test`;
  const { user } = await createUserWithWorkspace({ email, password: PASSWORD });
  const session = await createSession(user.id);
  const actor = { userId: user.id, label: email, ip: null, sessionId: session.id };
  await stepUp({ actor, password: PASSWORD });
  const { secret } = await startEnrolment(actor, email);
  const { recoveryCodes } = await confirmEnrolment(actor, code(secret));
  return { email, secret, recoveryCodes };
}

function sessionCookie(cookies: string[]): string | undefined {
  return cookies.find((c) => c.includes('next-auth.session-token='));
}

describe('sign-in over HTTP with two-factor on', () => {
  it('without a code: no session, the form is asked for one; with a wrong code: refused; with the right code: signed in', async () => {
    const { email, secret } = await enrolledUser();
    const headers = { 'X-Forwarded-For': '198.51.100.61' };
    const noCode = await portalSignIn(baseUrl(), email, PASSWORD, headers);
    expect(noCode.outcome).toBe('code_required');
    expect(sessionCookie(noCode.cookies)).toBeUndefined();

    const wrong = await portalSignIn(baseUrl(), email, PASSWORD, headers, '000000');
    expect(wrong.outcome).toBe('code_invalid');
    expect(sessionCookie(wrong.cookies)).toBeUndefined();

    const right = await portalSignIn(baseUrl(), email, PASSWORD, headers, code(secret, 1));
    expect(right.outcome).toBe('ok');
    const cookie = sessionCookie(right.cookies)?.split(';')[0] ?? '';
    expect(cookie).not.toBe('');
    const me = await fetch(`${baseUrl()}/api/auth/session`, { headers: { cookie } });
    expect(((await me.json()) as { user?: { email?: string } }).user?.email).toBe(email);
  });

  it('a recovery code signs in once only', async () => {
    const { email, recoveryCodes } = await enrolledUser();
    const headers = { 'X-Forwarded-For': '198.51.100.62' };
    const recovery = recoveryCodes[0] ?? '';
    expect((await portalSignIn(baseUrl(), email, PASSWORD, headers, recovery)).outcome).toBe('ok');
    expect((await portalSignIn(baseUrl(), email, PASSWORD, headers, recovery)).outcome).toBe('code_invalid');
  });

  it('a wrong password with a valid code is "invalid email or password", never a hint about the code', async () => {
    const { email, secret } = await enrolledUser();
    expect(
      (
        await portalSignIn(
          baseUrl(),
          email,
          'not the password',
          { 'X-Forwarded-For': '198.51.100.63' },
          code(secret, 1),
        )
      ).outcome,
    ).toBe('invalid');
  });
});
