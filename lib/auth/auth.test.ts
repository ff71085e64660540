import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createUserWithWorkspace } from '../workspaces/workspaces';
import { verifyCredentials } from './credentials';
import { createSession, isSessionLive, revokeSession } from './sessions';
import { MAX_FAILURES_PER_EMAIL, MAX_FAILURES_PER_IP } from './throttle';

const PASSWORD = 'correct horse battery';

async function newUser() {
  const email = `auth-${randomUUID()}@example.test`;
  const { user } = await createUserWithWorkspace({ email, password: PASSWORD });
  return { ...user, email };
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
    const ip = `10.0.0.${Math.floor(Math.random() * 250)}-${randomUUID()}`;
    expect(await verifyCredentials(user.email.toUpperCase(), PASSWORD, ip)).toMatchObject({ outcome: 'ok', user: { id: user.id } });
    expect(await verifyCredentials(user.email, 'wrong password', ip)).toEqual({ outcome: 'invalid' });
    expect(await verifyCredentials(`nobody-${user.email}`, PASSWORD, ip)).toEqual({ outcome: 'invalid' });
  });

  it(`${MAX_FAILURES_PER_EMAIL} failures for one email refuse even the right password, from any address`, async () => {
    const user = await newUser();
    for (let i = 0; i < MAX_FAILURES_PER_EMAIL; i++) {
      expect((await verifyCredentials(user.email, `wrong ${i}`, `ip-${randomUUID()}`)).outcome).toBe('invalid');
    }
    expect((await verifyCredentials(user.email, PASSWORD, `ip-${randomUUID()}`)).outcome).toBe('throttled');
  });

  it('a success clears the email’s earlier failures', async () => {
    const user = await newUser();
    const ip = `ip-${randomUUID()}`;
    for (let i = 0; i < MAX_FAILURES_PER_EMAIL - 1; i++) await verifyCredentials(user.email, 'wrong', ip);
    expect((await verifyCredentials(user.email, PASSWORD, ip)).outcome).toBe('ok');
    for (let i = 0; i < MAX_FAILURES_PER_EMAIL - 1; i++) await verifyCredentials(user.email, 'wrong', ip);
    expect((await verifyCredentials(user.email, PASSWORD, ip)).outcome).toBe('ok');
  });

  it(`${MAX_FAILURES_PER_IP} failures from one address refuse that address for every email`, async () => {
    const user = await newUser();
    const ip = `ip-${randomUUID()}`;
    for (let i = 0; i < MAX_FAILURES_PER_IP; i++) await verifyCredentials(`spray-${i}-${randomUUID()}@example.test`, 'guess', ip);
    expect((await verifyCredentials(user.email, PASSWORD, ip)).outcome).toBe('throttled');
    expect((await verifyCredentials(user.email, PASSWORD, `ip-${randomUUID()}`)).outcome).toBe('ok');
  });
});
