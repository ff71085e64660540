import { randomUUID } from 'node:crypto';
import type { Account, User } from 'next-auth';
import type { JWT } from 'next-auth/jwt';
import { describe, expect, it } from 'vitest';
import { db } from '../db';
import { createUserWithWorkspace } from '../workspaces/workspaces';
import { authOptions } from './next-auth';
import { createLinkIntent, resolveOAuthSignIn } from './oauth';

/** next-auth's jwt callback as it runs on a GitHub sign-in, with a fake provider profile. */
async function githubSignIn(providerAccountId: string, email: string): Promise<JWT> {
  const jwt = authOptions().callbacks?.jwt;
  if (!jwt) throw new Error('no jwt callback');
  const user: User = { id: providerAccountId, email, name: 'Octo Cat' };
  const account: Account = { provider: 'github', type: 'oauth', providerAccountId, access_token: 'gho_fake' };
  return jwt({ token: { email }, user, account, profile: { login: 'octocat', email } as never, trigger: 'signIn' });
}

async function passwordUser() {
  const email = `victim-${randomUUID()}@corp.example`;
  const { user, workspace } = await createUserWithWorkspace({ email, password: 'correct horse battery' });
  return { ...user, email, workspaceId: workspace.id };
}

describe('OAuth sign-in (next-auth callbacks called directly with a fake GitHub profile)', () => {
  it('same email as a password account → a separate user with its own workspace, never a join', async () => {
    const victim = await passwordUser();
    const githubId = `gh-${randomUUID()}`;
    const token = await githubSignIn(githubId, victim.email);
    expect(token.uid).toMatch(/^usr_/);
    expect(token.uid).not.toBe(victim.id);
    expect(await db().membership.findFirst({ where: { userId: token.uid, workspaceId: victim.workspaceId } })).toBeNull();
    expect(await db().oAuthAccount.findUnique({ where: { provider_providerAccountId: { provider: 'github', providerAccountId: githubId } } })).toMatchObject({
      userId: token.uid,
      email: victim.email,
    });
    // The next sign-in of the same GitHub account is the same user, found by provider account id.
    expect((await githubSignIn(githubId, 'changed@example.test')).uid).toBe(token.uid);
    // Another GitHub account with the same email is yet another user.
    expect((await githubSignIn(`gh-${randomUUID()}`, victim.email)).uid).not.toBe(token.uid);
  });

  it('"Connect GitHub" from a signed-in session links once; the intent is single use and one identity has one owner', async () => {
    const owner = await passwordUser();
    const githubId = `gh-${randomUUID()}`;
    const intent = await createLinkIntent(owner.id, 'github');
    expect(await resolveOAuthSignIn({ provider: 'github', providerAccountId: githubId, email: 'someone@else.example' }, intent.id)).toEqual({
      userId: owner.id,
      linked: true,
    });
    expect((await githubSignIn(githubId, 'someone@else.example')).uid).toBe(owner.id);
    // Used intent: a second GitHub account presenting it gets a user of its own.
    const reuse = await resolveOAuthSignIn({ provider: 'github', providerAccountId: `gh-${randomUUID()}` }, intent.id);
    expect(reuse).not.toMatchObject({ userId: owner.id });
    // Another user cannot take over the linked GitHub identity with an intent of theirs.
    const other = await passwordUser();
    const otherIntent = await createLinkIntent(other.id, 'github');
    expect(await resolveOAuthSignIn({ provider: 'github', providerAccountId: githubId }, otherIntent.id)).toEqual({ refused: 'linked_to_another_user' });
  });

  it('an expired link intent links nothing', async () => {
    const owner = await passwordUser();
    const intent = await createLinkIntent(owner.id, 'github', new Date(Date.now() - 60 * 60_000));
    const result = await resolveOAuthSignIn({ provider: 'github', providerAccountId: `gh-${randomUUID()}` }, intent.id);
    expect(result).not.toMatchObject({ userId: owner.id });
  });
});
