import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { db } from '../db';
import { createUserWithWorkspace } from '../workspaces/workspaces';
import { verifyCredentials } from './credentials';
import { changePassword } from './password-change';
import { weakPasswordMessage } from './password-strength';
import { createSession, isSessionLive, revokeSession } from './sessions';
import { signUpFromPortal } from './signup';
import {
  emailDelayMs,
  EMAIL_DELAY_AFTER_FAILURES,
  MAX_FAILURES_PER_ADDRESS,
  MAX_FAILURES_PER_EMAIL_AND_ADDRESS,
} from './throttle';

const PASSWORD = 'correct horse battery';

async function newUser() {
  const email = `auth-${randomUUID()}@example.test`;
  const { user } = await createUserWithWorkspace({ email, password: PASSWORD });
  return { ...user, email };
}

/** A documentation-range address of the test's own, so tests never share throttle counters. */
function newAddress(): string {
  return `2001:db8::${randomUUID().slice(0, 4)}:${randomUUID().slice(0, 4)}`;
}

describe('server-side sessions', () => {
  it('a session is live until revoked, only for its own user, and not after it expires', async () => {
    const user = await newUser();
    const other = await newUser();
    const session = await createSession(user.id);
    expect(await isSessionLive(session.id, user.id)).toBe(true);
    expect(await isSessionLive(session.id, other.id)).toBe(false);
    expect(await isSessionLive('ses_doesnotexist', user.id)).toBe(false);
    expect(await isSessionLive(session.id, user.id, new Date(session.expiresAt.getTime() + 1))).toBe(false);
    await revokeSession(session.id);
    expect(await isSessionLive(session.id, user.id)).toBe(false);
  });
});

describe('credentials and login throttling', () => {
  it('one answer for a wrong password and an unknown email; emails are case-insensitive', async () => {
    const user = await newUser();
    const address = newAddress();
    expect(await verifyCredentials(user.email.toUpperCase(), PASSWORD, address)).toMatchObject({
      outcome: 'ok',
      user: { id: user.id },
    });
    expect(await verifyCredentials(user.email, 'wrong password', address)).toEqual({ outcome: 'invalid' });
    expect(await verifyCredentials(`nobody-${user.email}`, PASSWORD, address)).toEqual({ outcome: 'invalid' });
  });

  it('a guesser at one address is throttled, even with the right password; the owner at another address still signs in', async () => {
    const user = await newUser();
    const stranger = newAddress();
    for (let i = 0; i < MAX_FAILURES_PER_EMAIL_AND_ADDRESS; i++) {
      expect((await verifyCredentials(user.email, `wrong ${i}`, stranger)).outcome).toBe('invalid');
    }
    expect((await verifyCredentials(user.email, 'wrong again', stranger)).outcome).toBe('throttled');
    expect((await verifyCredentials(user.email, PASSWORD, stranger)).outcome).toBe('throttled');
    // The stranger's failures cost the owner a short progressive delay at most, never a refusal.
    expect((await verifyCredentials(user.email, PASSWORD, newAddress())).outcome).toBe('ok');
  });

  it('a success gives its slot back: the owner who mistypes now and then is never throttled', async () => {
    const user = await newUser();
    const address = newAddress();
    for (let round = 0; round < 3; round++) {
      for (let i = 0; i < MAX_FAILURES_PER_EMAIL_AND_ADDRESS - 1; i++)
        await verifyCredentials(user.email, 'wrong', address);
      expect((await verifyCredentials(user.email, PASSWORD, address)).outcome).toBe('ok');
    }
  });

  it(`${MAX_FAILURES_PER_ADDRESS} failures from one address refuse that address for every email, and only that address`, async () => {
    const user = await newUser();
    const address = newAddress();
    for (let i = 0; i < MAX_FAILURES_PER_ADDRESS; i++)
      await verifyCredentials(`spray-${i}-${randomUUID()}@example.test`, 'guess', address);
    expect((await verifyCredentials(user.email, PASSWORD, address)).outcome).toBe('throttled');
    expect((await verifyCredentials(user.email, PASSWORD, newAddress())).outcome).toBe('ok');
  });

  it('20 parallel wrong passwords for one email from one address: at most the limit are checked', async () => {
    const user = await newUser();
    const address = newAddress();
    const outcomes = await Promise.all(
      Array.from({ length: 20 }, (_, i) => verifyCredentials(user.email, `parallel ${i}`, address)),
    );
    const checked = outcomes.filter((result) => result.outcome === 'invalid').length;
    expect(checked).toBeLessThanOrEqual(MAX_FAILURES_PER_EMAIL_AND_ADDRESS);
    expect(outcomes.filter((result) => result.outcome === 'throttled').length).toBe(20 - checked);
  });

  it('the per-email delay grows with failures from anywhere, and is capped', () => {
    expect(emailDelayMs(EMAIL_DELAY_AFTER_FAILURES - 1)).toBe(0);
    expect(emailDelayMs(EMAIL_DELAY_AFTER_FAILURES)).toBe(500);
    expect(emailDelayMs(EMAIL_DELAY_AFTER_FAILURES + 1)).toBe(1000);
    expect(emailDelayMs(1000)).toBe(4000);
  });
});

describe('passwords', () => {
  it('common and easily guessed passwords are refused with a clear message; passphrases are accepted', async () => {
    for (const weak of ['12345678', 'password', 'Passw0rd!', 'qwertyuiop', 'iloveyou123']) {
      expect(weakPasswordMessage(weak), weak).toMatch(/too easy to guess/);
    }
    expect(weakPasswordMessage(PASSWORD)).toBeNull();
    await expect(
      createUserWithWorkspace({ email: `weak-${randomUUID()}@example.test`, password: '12345678' }),
    ).rejects.toThrow(/too easy to guess/);
  });

  it('a password change needs the current password, refuses a weak one, and ends the other sessions only', async () => {
    const user = await newUser();
    const current = await createSession(user.id);
    const other = await createSession(user.id);
    await expect(
      changePassword({
        userId: user.id,
        keepSessionId: current.id,
        currentPassword: 'not it',
        newPassword: 'violet kettle drums',
      }),
    ).rejects.toMatchObject({
      code: 'current_password_incorrect',
    });
    await expect(
      changePassword({
        userId: user.id,
        keepSessionId: current.id,
        currentPassword: PASSWORD,
        newPassword: 'password',
      }),
    ).rejects.toThrow(/too easy/);
    expect(await isSessionLive(other.id, user.id)).toBe(true);

    expect(
      await changePassword({
        userId: user.id,
        keepSessionId: current.id,
        currentPassword: PASSWORD,
        newPassword: 'violet kettle drums',
      }),
    ).toEqual({ endedSessions: 1 });
    expect(await isSessionLive(current.id, user.id)).toBe(true);
    expect(await isSessionLive(other.id, user.id)).toBe(false);
    expect((await verifyCredentials(user.email, PASSWORD, newAddress())).outcome).toBe('invalid');
    expect((await verifyCredentials(user.email, 'violet kettle drums', newAddress())).outcome).toBe('ok');
  });
});

describe('sign-up', () => {
  it('answers the same for an existing email and changes nothing of that account', async () => {
    const user = await newUser();
    await expect(
      signUpFromPortal({ email: user.email, password: 'an attacker passphrase' }, newAddress()),
    ).resolves.toBeUndefined();
    expect((await verifyCredentials(user.email, 'an attacker passphrase', newAddress())).outcome).toBe('invalid');
    expect((await verifyCredentials(user.email, PASSWORD, newAddress())).outcome).toBe('ok');
    expect(await db().membership.count({ where: { userId: user.id } })).toBe(1);
  });

  it('is throttled per client address (SIGNUP_LIMIT_PER_HOUR, 10 by default)', async () => {
    const address = newAddress();
    for (let i = 0; i < 10; i++)
      await signUpFromPortal({ email: `signup-${i}-${randomUUID()}@example.test`, password: PASSWORD }, address);
    const email = `signup-over-${randomUUID()}@example.test`;
    await expect(signUpFromPortal({ email, password: PASSWORD }, address)).rejects.toMatchObject({
      code: 'too_many_attempts',
    });
    expect(await db().user.count({ where: { email } })).toBe(0);
    await signUpFromPortal({ email, password: PASSWORD }, newAddress());
    expect(await db().user.count({ where: { email } })).toBe(1);
  });
});
