import { randomUUID } from 'node:crypto';
import type { Account, User } from 'next-auth';
import type { JWT } from 'next-auth/jwt';
import { generateSync } from 'otplib';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { describe, expect, it } from 'vitest';
import type { AuditActor } from '../audit/audit';
import { recentSecurityChanges } from '../audit/recent-changes';
import { db } from '../db';
import { setWallet } from '../wallets/wallets';
import { createUserWithWorkspace } from '../workspaces/workspaces';
import { authOptions } from './next-auth';
import { createLinkIntent, resolveOAuthSignIn, unlinkOAuthAccount } from './oauth';
import { completeOAuthSecondFactor } from './oauth-second-factor';
import { changePassword } from './password-change';
import { createSession, isSessionLive, revokeOtherSessions, sessionState } from './sessions';
import { STEP_UP_WINDOW_SECONDS, stepUp } from './step-up';
import { confirmEnrolment, startEnrolment } from './two-factor';

/** next-auth's jwt callback as it runs on a GitHub sign-in, with a fake provider profile. */
async function githubSignIn(providerAccountId: string, email: string): Promise<JWT> {
  const jwt = authOptions().callbacks?.jwt;
  if (!jwt) throw new Error('no jwt callback');
  const user: User = { id: providerAccountId, email, name: 'Octo Cat' };
  const account: Account = { provider: 'github', type: 'oauth', providerAccountId, access_token: 'gho_fake' };
  return jwt({ token: { email }, user, account, profile: { login: 'octocat', email } as never, trigger: 'signIn' });
}

const PASSWORD = 'correct horse battery';

async function passwordUser() {
  const email = `victim-${randomUUID()}@corp.example`;
  const { user, workspace } = await createUserWithWorkspace({ email, password: PASSWORD, plan: 'Developer' });
  const session = await createSession(user.id);
  const actor = { userId: user.id, label: email, ip: '203.0.113.9', sessionId: session.id } satisfies AuditActor;
  return { ...user, email, workspaceId: workspace.id, session, actor };
}

/** A password user whose session has just confirmed the password (step-up), as "Connect GitHub" needs. */
async function steppedUpUser() {
  const owner = await passwordUser();
  await stepUp({ actor: owner.actor, password: PASSWORD });
  return owner;
}

describe('OAuth sign-in (next-auth callbacks called directly with a fake GitHub profile)', () => {
  it('same email as a password account → a separate user with its own workspace, never a join', async () => {
    const victim = await passwordUser();
    const githubId = `gh-${randomUUID()}`;
    const token = await githubSignIn(githubId, victim.email);
    expect(token.uid).toMatch(/^usr_/);
    expect(token.uid).not.toBe(victim.id);
    expect(
      await db().membership.findFirst({ where: { userId: token.uid, workspaceId: victim.workspaceId } }),
    ).toBeNull();
    expect(
      await db().oAuthAccount.findUnique({
        where: { provider_providerAccountId: { provider: 'github', providerAccountId: githubId } },
      }),
    ).toMatchObject({
      userId: token.uid,
      email: victim.email,
    });
    // The next sign-in of the same GitHub account is the same user, found by provider account id.
    expect((await githubSignIn(githubId, 'changed@example.test')).uid).toBe(token.uid);
    // Another GitHub account with the same email is yet another user.
    expect((await githubSignIn(`gh-${randomUUID()}`, victim.email)).uid).not.toBe(token.uid);
  });

  it('"Connect GitHub" from a signed-in session links once; the intent is single use and one identity has one owner', async () => {
    const owner = await steppedUpUser();
    const githubId = `gh-${randomUUID()}`;
    const intent = await createLinkIntent(owner.actor, 'github');
    expect(
      await resolveOAuthSignIn(
        { provider: 'github', providerAccountId: githubId, email: 'someone@else.example' },
        intent.id,
      ),
    ).toEqual({
      userId: owner.id,
      linked: true,
      sessionId: owner.session.id,
    });
    expect((await githubSignIn(githubId, 'someone@else.example')).uid).toBe(owner.id);
    // Used intent: a second GitHub account presenting it gets a user of its own.
    const reuse = await resolveOAuthSignIn({ provider: 'github', providerAccountId: `gh-${randomUUID()}` }, intent.id);
    expect(reuse).not.toMatchObject({ userId: owner.id });
    // Another user cannot take over the linked GitHub identity with an intent of theirs.
    const other = await steppedUpUser();
    const otherIntent = await createLinkIntent(other.actor, 'github');
    expect(await resolveOAuthSignIn({ provider: 'github', providerAccountId: githubId }, otherIntent.id)).toEqual({
      refused: 'linked_to_another_user',
    });
  });

  it('an expired link intent links nothing', async () => {
    const owner = await passwordUser();
    const past = new Date(Date.now() - 60 * 60_000);
    await stepUp({ actor: owner.actor, password: PASSWORD }, past);
    const intent = await createLinkIntent(owner.actor, 'github', past);
    const result = await resolveOAuthSignIn({ provider: 'github', providerAccountId: `gh-${randomUUID()}` }, intent.id);
    expect(result).not.toMatchObject({ userId: owner.id });
  });
});

async function refusedWith(promise: Promise<unknown>, code: string): Promise<void> {
  await expect(promise).rejects.toMatchObject({ code });
}

/** A password user with two-factor on (enrolled through the step-up, as the Account page does) and GitHub linked. */
async function twoFactorUserWithGitHub() {
  const owner = await steppedUpUser();
  const { secret } = await startEnrolment(owner.actor, owner.email);
  await confirmEnrolment(owner.actor, generateSync({ secret }));
  const githubId = `gh-${randomUUID()}`;
  await resolveOAuthSignIn(
    { provider: 'github', providerAccountId: githubId },
    (await createLinkIntent(owner.actor, 'github')).id,
  );
  return { ...owner, githubId, secret };
}

describe('linking GitHub is guarded like a payout wallet', () => {
  it('"Connect GitHub" with only a session cookie is refused (step-up first), and no intent is recorded', async () => {
    const victim = await passwordUser();
    await refusedWith(createLinkIntent(victim.actor, 'github'), 'step_up_required');
    expect(await db().oAuthLinkIntent.count({ where: { userId: victim.id } })).toBe(0);
    // A session of another user, or none, proves nothing either.
    await refusedWith(createLinkIntent({ ...victim.actor, sessionId: 'ses_forged' }, 'github'), 'step_up_required');
  });

  it('a link and an unlink are audited and listed under "Recent security changes"; unlink needs a step-up', async () => {
    const owner = await steppedUpUser();
    const githubId = `gh-${randomUUID()}`;
    await resolveOAuthSignIn(
      { provider: 'github', providerAccountId: githubId, email: 'Octo@Example.test' },
      (await createLinkIntent(owner.actor, 'github')).id,
    );
    const linked = await db().auditLog.findFirstOrThrow({
      where: { workspaceId: owner.workspaceId, action: 'user.oauth_linked' },
    });
    expect(linked.details).toMatchObject({ provider: 'github', provider_email: 'octo@example.test' });
    expect((await recentSecurityChanges(owner.workspaceId)).map((c) => c.summary)).toContain(
      'GitHub sign-in connected (octo@example.test)',
    );

    // A GitHub sign-in of that account; then the owner disconnects GitHub from another session.
    const github = await githubSignIn(githubId, 'octo@example.test');
    expect(github.uid).toBe(owner.id);
    const other = await createSession(owner.id);
    const otherActor = { ...owner.actor, sessionId: other.id };
    await refusedWith(unlinkOAuthAccount(otherActor, 'github'), 'step_up_required');
    await stepUp({ actor: otherActor, password: PASSWORD });
    expect(await unlinkOAuthAccount(otherActor, 'github')).toEqual({ endedSessions: 1 });
    expect(await isSessionLive(String(github.sid), owner.id)).toBe(false);
    expect(await db().oAuthAccount.count({ where: { userId: owner.id } })).toBe(0);
    expect((await recentSecurityChanges(owner.workspaceId)).map((c) => c.summary)[0]).toBe(
      'GitHub sign-in disconnected',
    );
    // The same GitHub account now signs in as a new user of its own, not as the owner.
    expect((await githubSignIn(githubId, 'octo@example.test')).uid).not.toBe(owner.id);
  });

  it('a GitHub-only account cannot disconnect its only way in', async () => {
    const token = await githubSignIn(`gh-${randomUUID()}`, 'solo@example.test');
    const actor = { userId: String(token.uid), label: 'solo', ip: null, sessionId: String(token.sid) };
    await refusedWith(unlinkOAuthAccount(actor, 'github'), 'step_up_required'); // no proof yet: nothing else is said
    const { secret } = await startEnrolment(actor, 'solo');
    await confirmEnrolment(actor, generateSync({ secret }));
    await stepUp({ actor, code: generateSync({ secret, epoch: Math.floor(Date.now() / 1000) + 30 }) });
    await refusedWith(unlinkOAuthAccount(actor, 'github'), 'only_sign_in_method');
  });
});

describe('two-factor sign-in applies to GitHub sign-ins', () => {
  it('with two-factor on, a GitHub sign-in asks for the code: the session authenticates nothing until it is entered', async () => {
    const owner = await twoFactorUserWithGitHub();
    const token = await githubSignIn(owner.githubId, 'octo@example.test');
    expect(token.uid).toBe(owner.id);
    const sid = String(token.sid);
    expect(await sessionState(sid, owner.id)).toBe('second_factor_pending');
    expect(await isSessionLive(sid, owner.id)).toBe(false);
    // What the portal sees: no user (it sends the browser to the sign-in page, which asks for the code).
    const callbacks = authOptions().callbacks;
    const read = await callbacks?.jwt?.({ token, user: undefined as never, account: null, trigger: 'update' });
    const session = await callbacks?.session?.({ session: { expires: 'x' }, token: read ?? {} } as never);
    expect(session).toMatchObject({ secondFactorPending: { sid, userId: owner.id } });
    expect(session).not.toHaveProperty('user');
    // Nothing protected can be done from it, even with the password.
    const pendingActor = { ...owner.actor, sessionId: sid };
    await expect(
      stepUp({
        actor: pendingActor,
        password: PASSWORD,
        code: generateSync({ secret: owner.secret, epoch: Math.floor(Date.now() / 1000) + 30 }),
      }),
    ).rejects.toMatchObject({
      code: 'step_up_failed',
    });
    await refusedWith(
      setWallet(
        owner.workspaceId,
        { network: 'polygon', address: privateKeyToAccount(generatePrivateKey()).address },
        pendingActor,
      ),
      'step_up_required',
    );

    await refusedWith(
      completeOAuthSecondFactor({ sessionId: sid, userId: owner.id, code: '000000', ip: null, email: null }),
      'two_factor_code_invalid',
    );
    expect(await isSessionLive(sid, owner.id)).toBe(false);
    // The code of the next step (the current one was used by the enrolment).
    await completeOAuthSecondFactor({
      sessionId: sid,
      userId: owner.id,
      code: generateSync({ secret: owner.secret, epoch: Math.floor(Date.now() / 1000) + 30 }),
      ip: null,
      email: null,
    });
    expect(await isSessionLive(sid, owner.id)).toBe(true);
    const signedIn = await db().auditLog.findFirstOrThrow({
      where: { workspaceId: owner.workspaceId, action: 'user.signed_in' },
      orderBy: { id: 'desc' },
    });
    expect(signedIn.details).toMatchObject({ second_factor: 'totp' });
  });

  it('a waiting sign-in expires: after 10 minutes the code no longer opens it', async () => {
    const owner = await twoFactorUserWithGitHub();
    const token = await githubSignIn(owner.githubId, 'octo@example.test');
    await db().session.update({
      where: { id: String(token.sid) },
      data: { createdAt: new Date(Date.now() - 11 * 60_000) },
    });
    expect(await sessionState(String(token.sid), owner.id)).toBe('ended');
    await refusedWith(
      completeOAuthSecondFactor({
        sessionId: String(token.sid),
        userId: owner.id,
        code: generateSync({ secret: owner.secret, epoch: Math.floor(Date.now() / 1000) + 30 }),
        ip: null,
        email: null,
      }),
      'two_factor_code_invalid',
    );
  });
});

describe('ending sessions ends GitHub sign-ins too', () => {
  it('a password change and "sign out everywhere else" end sessions created through GitHub', async () => {
    const owner = await steppedUpUser();
    const githubId = `gh-${randomUUID()}`;
    await resolveOAuthSignIn(
      { provider: 'github', providerAccountId: githubId },
      (await createLinkIntent(owner.actor, 'github')).id,
    );
    const first = await githubSignIn(githubId, 'octo@example.test');
    expect(await isSessionLive(String(first.sid), owner.id)).toBe(true);
    await changePassword({
      userId: owner.id,
      keepSessionId: owner.session.id,
      currentPassword: PASSWORD,
      newPassword: 'another horse battery staple',
    });
    expect(await isSessionLive(String(first.sid), owner.id)).toBe(false);

    const second = await githubSignIn(githubId, 'octo@example.test');
    expect(await revokeOtherSessions(owner.id, owner.session.id, owner.actor)).toBe(1);
    expect(await isSessionLive(String(second.sid), owner.id)).toBe(false);
    expect(await isSessionLive(owner.session.id, owner.id)).toBe(true);
    expect(
      await db().auditLog.count({ where: { workspaceId: owner.workspaceId, action: 'user.signed_out_everywhere' } }),
    ).toBe(1);
  });
});

describe('"recent sign-in" is a step-up only when the provider re-authenticated', () => {
  it('a fresh GitHub sign-in (GitHub cannot be made to re-authenticate) does not allow a wallet change; it may add the first factor', async () => {
    const token = await githubSignIn(`gh-${randomUUID()}`, 'fresh@example.test');
    const userId = String(token.uid);
    const actor = { userId, label: 'fresh', ip: null, sessionId: String(token.sid) };
    const { workspaceId } = await db().membership.findFirstOrThrow({ where: { userId } });
    await refusedWith(
      setWallet(workspaceId, { network: 'polygon', address: privateKeyToAccount(generatePrivateKey()).address }, actor),
      'step_up_required',
    );
    await refusedWith(createLinkIntent(actor, 'github'), 'step_up_required');
    // Turning two-factor on is allowed right after the sign-in; then changes ask for the code.
    const { secret } = await startEnrolment(actor, 'fresh');
    await confirmEnrolment(actor, generateSync({ secret }));
    await refusedWith(
      setWallet(workspaceId, { network: 'polygon', address: privateKeyToAccount(generatePrivateKey()).address }, actor),
      'step_up_required',
    );
    await stepUp({ actor, code: generateSync({ secret, epoch: Math.floor(Date.now() / 1000) + 30 }) });
    await setWallet(
      workspaceId,
      { network: 'polygon', address: privateKeyToAccount(generatePrivateKey()).address },
      actor,
    );
    // Past the window, the first factor can no longer be added on a GitHub sign-in alone.
    const late = await githubSignIn(`gh-${randomUUID()}`, 'late@example.test');
    await db().session.update({
      where: { id: String(late.sid) },
      data: { createdAt: new Date(Date.now() - (STEP_UP_WINDOW_SECONDS + 1) * 1000) },
    });
    await refusedWith(
      startEnrolment({ userId: String(late.uid), label: 'late', ip: null, sessionId: String(late.sid) }, 'late'),
      'step_up_required',
    );
  });
});
