import type { AuditActor } from '../audit/audit';
import { recordUserAudit } from '../audit/sign-in';
import { db } from '../db';
import { AppError } from '../errors';
import { newId } from '../ids';
import { defaultPlan } from '../plans';
import { providerLabel } from './providers';
import { requireStepUp, stepUpDetail } from './step-up';

/**
 * OAuth identities. A provider sign-in is found by provider + the provider's own account id, never by email:
 * sign-up does not verify email addresses, so "same email" proves nothing (whoever registered
 * victim@corp.example first would otherwise own the workspace the victim later reaches through GitHub).
 * A provider account joins an existing user only when that user asked for it from a signed-in session that
 * has just confirmed it is them (step-up: "Connect GitHub" → a single-use link intent, carried by an httpOnly
 * cookie to the OAuth callback). A linked provider is another way in, so linking is guarded like a payout wallet:
 * whoever holds only a session cookie cannot add their own GitHub account to it. Linking and unlinking are
 * recorded (`user.oauth_linked` / `user.oauth_unlinked`) and shown under "Recent security changes".
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

/**
 * `linked`: the provider account was just joined to `userId`; `sessionId` is then the session that asked for it
 * (the callback keeps that session rather than signing in anew).
 */
export type OAuthSignIn =
  { userId: string; linked: boolean; sessionId?: string | null } | { refused: 'linked_to_another_user' };

type PersonActor = AuditActor & { userId: string; sessionId: string };

/** "Connect GitHub": needs a step-up on this session (step_up_required otherwise), then a single-use intent. */
export async function createLinkIntent(
  actor: PersonActor,
  provider: string,
  now = new Date(),
): Promise<{ id: string; expiresAt: Date }> {
  const id = newId('oauthLinkIntent');
  const expiresAt = new Date(now.getTime() + LINK_INTENT_TTL_MINUTES * 60_000);
  await db().$transaction(async (tx) => {
    await requireStepUp(tx, actor, now);
    await tx.oAuthLinkIntent.create({
      data: { id, userId: actor.userId, provider, expiresAt, sessionId: actor.sessionId },
    });
  });
  return { id, expiresAt };
}

/** Consumes a link intent (single use): the user it was made for and its session, if it is live and for this provider. */
async function consumeLinkIntent(
  id: string,
  provider: string,
  now: Date,
): Promise<{ userId: string; sessionId: string | null } | null> {
  const rows = await db().$queryRaw<Array<{ user_id: string; session_id: string | null }>>`
    DELETE FROM oauth_link_intents WHERE id = ${id} AND provider = ${provider} AND expires_at > ${now} RETURNING user_id, session_id`;
  return rows[0] ? { userId: rows[0].user_id, sessionId: rows[0].session_id } : null;
}

/**
 * The user an OAuth sign-in signs in as:
 *  - the provider account is known → its user (a link intent for another user is refused: one owner per identity);
 *  - else a live link intent → the provider account is linked to the user who made it;
 *  - else a NEW user with their own workspace (no email, no password), even when a user with the same email exists.
 */
export async function resolveOAuthSignIn(
  identity: OAuthIdentity,
  linkIntentId: string | null,
  now = new Date(),
): Promise<OAuthSignIn> {
  const { provider, providerAccountId } = identity;
  const linkTo = linkIntentId ? await consumeLinkIntent(linkIntentId, provider, now) : null;
  const existing = await db().oAuthAccount.findUnique({
    where: { provider_providerAccountId: { provider, providerAccountId } },
    select: { userId: true },
  });
  if (existing) {
    if (linkTo && linkTo.userId !== existing.userId) return { refused: 'linked_to_another_user' };
    return { userId: existing.userId, linked: false, sessionId: linkTo?.sessionId ?? null };
  }
  const email = identity.email?.trim().toLowerCase() || null;
  if (linkTo) {
    await db().$transaction(async (tx) => {
      await tx.oAuthAccount.create({ data: { provider, providerAccountId, userId: linkTo.userId, email } });
      await recordUserAudit(tx, linkTo.userId, {
        action: 'user.oauth_linked',
        actor: { userId: linkTo.userId, label: email ?? linkTo.userId, ip: null },
        details: { provider, provider_email: email },
      });
    });
    return { userId: linkTo.userId, linked: true, sessionId: linkTo.sessionId };
  }
  const userId = newId('user');
  const workspaceId = newId('workspace');
  const owner = identity.name?.trim() || email?.split('@')[0] || `${provider} user`;
  await db().$transaction([
    db().user.create({ data: { id: userId, email: null, passwordHash: null } }),
    db().oAuthAccount.create({ data: { provider, providerAccountId, userId, email } }),
    db().workspace.create({
      data: { id: workspaceId, name: `${owner.slice(0, 60)}'s workspace`, plan: defaultPlan() },
    }),
    db().membership.create({ data: { userId, workspaceId, role: 'owner' } }),
  ]);
  return { userId, linked: false };
}

export async function listOAuthAccounts(
  userId: string,
): Promise<Array<{ provider: string; email: string | null; createdAt: Date }>> {
  return db().oAuthAccount.findMany({
    where: { userId },
    orderBy: { createdAt: 'asc' },
    select: { provider: true, email: true, createdAt: true },
  });
}

/**
 * Disconnects a provider from the signed-in user (step-up required). Refused when it is the account's only way
 * to sign in (no password). Sessions that signed in through that provider end in the same transaction.
 */
export async function unlinkOAuthAccount(
  actor: PersonActor,
  provider: string,
  now = new Date(),
): Promise<{ endedSessions: number }> {
  return db().$transaction(async (tx) => {
    const proof = await requireStepUp(tx, actor, now);
    const user = await tx.user.findUnique({ where: { id: actor.userId }, select: { passwordHash: true } });
    if (!user?.passwordHash) {
      throw new AppError(
        'only_sign_in_method',
        `This account has no password: ${providerLabel(provider)} is its only way to sign in, so it stays connected.`,
      );
    }
    const removed = await tx.oAuthAccount.deleteMany({ where: { userId: actor.userId, provider } });
    if (removed.count === 0) throw new AppError('not_found', `No ${providerLabel(provider)} account is connected.`);
    const ended = await tx.session.updateMany({
      where: { userId: actor.userId, authProvider: provider, revokedAt: null, id: { not: actor.sessionId } },
      data: { revokedAt: now },
    });
    await recordUserAudit(tx, actor.userId, {
      action: 'user.oauth_unlinked',
      actor,
      details: { provider, ended_sessions: ended.count, ...stepUpDetail(proof) },
    });
    return { endedSessions: ended.count };
  });
}
