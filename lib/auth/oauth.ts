import { db } from '../db';
import { newId } from '../ids';
import { defaultPlan } from '../plans';

/**
 * OAuth identities. A provider sign-in is found by provider + the provider's own account id, never by email:
 * sign-up does not verify email addresses, so "same email" proves nothing (whoever registered
 * victim@corp.example first would otherwise own the workspace the victim later reaches through GitHub).
 * A provider account joins an existing user only when that user asked for it from a signed-in session
 * ("Connect GitHub" → a single-use link intent, carried by an httpOnly cookie to the OAuth callback).
 */
export interface OAuthIdentity {
  provider: string;
  providerAccountId: string;
  /** As the provider reports it: stored for display, never used to find a user. */
  email?: string | null;
  /** A display name for the new workspace (e.g. the GitHub login). */
  name?: string | null;
}

export const LINK_INTENT_TTL_MINUTES = 10;
export const LINK_INTENT_COOKIE = 'oauth-link-intent';

export type OAuthSignIn = { userId: string; linked: boolean } | { refused: 'linked_to_another_user' };

export async function createLinkIntent(userId: string, provider: string, now = new Date()): Promise<{ id: string; expiresAt: Date }> {
  const id = newId('oauthLinkIntent');
  const expiresAt = new Date(now.getTime() + LINK_INTENT_TTL_MINUTES * 60_000);
  await db().oAuthLinkIntent.create({ data: { id, userId, provider, expiresAt } });
  return { id, expiresAt };
}

/** Consumes a link intent (single use): the user it was made for, if it is live and for this provider. */
async function consumeLinkIntent(id: string, provider: string, now: Date): Promise<string | null> {
  const rows = await db().$queryRaw<Array<{ user_id: string }>>`
    DELETE FROM oauth_link_intents WHERE id = ${id} AND provider = ${provider} AND expires_at > ${now} RETURNING user_id`;
  return rows[0]?.user_id ?? null;
}

/**
 * The user an OAuth sign-in signs in as:
 *  - the provider account is known → its user (a link intent for another user is refused: one owner per identity);
 *  - else a live link intent → the provider account is linked to the user who made it;
 *  - else a NEW user with their own workspace (no email, no password), even when a user with the same email exists.
 */
export async function resolveOAuthSignIn(identity: OAuthIdentity, linkIntentId: string | null, now = new Date()): Promise<OAuthSignIn> {
  const { provider, providerAccountId } = identity;
  const linkTo = linkIntentId ? await consumeLinkIntent(linkIntentId, provider, now) : null;
  const existing = await db().oAuthAccount.findUnique({ where: { provider_providerAccountId: { provider, providerAccountId } }, select: { userId: true } });
  if (existing) {
    if (linkTo && linkTo !== existing.userId) return { refused: 'linked_to_another_user' };
    return { userId: existing.userId, linked: false };
  }
  const email = identity.email?.trim().toLowerCase() || null;
  if (linkTo) {
    await db().oAuthAccount.create({ data: { provider, providerAccountId, userId: linkTo, email } });
    return { userId: linkTo, linked: true };
  }
  const userId = newId('user');
  const workspaceId = newId('workspace');
  const owner = identity.name?.trim() || email?.split('@')[0] || `${provider} user`;
  await db().$transaction([
    db().user.create({ data: { id: userId, email: null, passwordHash: null } }),
    db().oAuthAccount.create({ data: { provider, providerAccountId, userId, email } }),
    db().workspace.create({ data: { id: workspaceId, name: `${owner.slice(0, 60)}'s workspace`, plan: defaultPlan() } }),
    db().membership.create({ data: { userId, workspaceId, role: 'owner' } }),
  ]);
  return { userId, linked: false };
}

export async function listOAuthAccounts(userId: string): Promise<Array<{ provider: string; email: string | null; createdAt: Date }>> {
  return db().oAuthAccount.findMany({ where: { userId }, orderBy: { createdAt: 'asc' }, select: { provider: true, email: true, createdAt: true } });
}
