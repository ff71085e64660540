import { createHash, randomBytes } from 'node:crypto';
import { z } from 'zod';
import { hashPassword, NewPassword } from '../auth/password';
import { takeSignUpSlot } from '../auth/throttle';
import { recordAudit, type AuditActor } from '../audit/audit';
import { db, type Prisma } from '../db';
import { AppError } from '../errors';
import { newId } from '../ids';
import { env, publicUrl } from '../env';
import { addMember } from './members';
import { assignableRoles, canManageMember, isRole, ROLE_LABELS, ROLES, type Role } from './roles';

/**
 * Invitations (docs/portal.md, "Invitations"): an Owner or Admin invites an email with a role. The link carries a
 * 256-bit token; only its SHA-256 is stored, so the link exists once — on the inviter's screen and in the mail.
 * It works once, for 7 days, and only for an account with that email.
 */
export const INVITATION_TTL_DAYS = 7;

export const InviteInput = z.strictObject({
  email: z.string().trim().toLowerCase().pipe(z.email('Enter a valid email address').max(254)),
  role: z.enum(ROLES, { error: 'Choose a role' }),
});

export interface InvitationView {
  id: string;
  email: string;
  role: Role;
  invitedByLabel: string;
  createdAt: Date;
  expiresAt: Date;
}

/** What the invitation page shows about a link (nothing else about the workspace). */
export interface InvitationPreview {
  id: string;
  workspaceId: string;
  workspaceName: string;
  email: string;
  role: Role;
  invitedByLabel: string;
  expiresAt: Date;
}

type Tx = Prisma.TransactionClient;

function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export function invitationUrl(token: string): string {
  return `${publicUrl()}/invite/${token}`;
}

function roleOf(value: string): Role {
  if (!isRole(value)) throw new Error(`unknown role ${value} in invitations`);
  return value;
}

/**
 * Creates an invitation and returns its link (shown once). Inviting an email again replaces its pending
 * invitation (the old link stops working). The actor's role is re-read: an Admin cannot invite an Owner.
 */
export async function createInvitation(
  workspaceId: string,
  input: z.input<typeof InviteInput>,
  actor: AuditActor,
  now = new Date(),
): Promise<{ invitation: InvitationView; url: string; token: string }> {
  const parsed = InviteInput.parse(input);
  const token = randomBytes(32).toString('base64url');
  const id = newId('invitation');
  const expiresAt = new Date(now.getTime() + INVITATION_TTL_DAYS * 86_400_000);
  const row = await db().$transaction(async (tx) => {
    await tx.$queryRaw`SELECT id FROM workspaces WHERE id = ${workspaceId} FOR UPDATE`;
    if (actor.userId !== null) {
      const acting = await tx.membership.findUnique({
        where: { userId_workspaceId: { userId: actor.userId, workspaceId } },
        select: { role: true },
      });
      if (!acting || !isRole(acting.role)) throw new AppError('not_found', 'Workspace not found');
      if (!assignableRoles(acting.role).includes(parsed.role)) {
        throw new AppError(
          'role_forbidden',
          `As ${ROLE_LABELS[acting.role]} you cannot invite someone as ${ROLE_LABELS[parsed.role]}.`,
        );
      }
    }
    const member = await tx.membership.findFirst({
      where: { workspaceId, user: { email: parsed.email } },
      select: { userId: true },
    });
    if (member) throw new AppError('already_member', `${parsed.email} is already a member of this workspace.`);
    await tx.invitation.updateMany({
      where: { workspaceId, email: parsed.email, acceptedAt: null, revokedAt: null },
      data: { revokedAt: now },
    });
    const created = await tx.invitation.create({
      data: {
        id,
        workspaceId,
        email: parsed.email,
        role: parsed.role,
        tokenHash: hashToken(token),
        invitedByUserId: actor.userId,
        invitedByLabel: actor.label,
        createdAt: now,
        expiresAt,
      },
    });
    await recordAudit(tx, {
      workspaceId,
      action: 'member.invited',
      actor,
      target: `invitation ${parsed.email}`,
      details: { role: parsed.role, expires_at: expiresAt.toISOString() },
    });
    return created;
  });
  return { invitation: toView(row), url: invitationUrl(token), token };
}

function toView(row: {
  id: string;
  email: string;
  role: string;
  invitedByLabel: string;
  createdAt: Date;
  expiresAt: Date;
}): InvitationView {
  return {
    id: row.id,
    email: row.email,
    role: roleOf(row.role),
    invitedByLabel: row.invitedByLabel,
    createdAt: row.createdAt,
    expiresAt: row.expiresAt,
  };
}

/** Pending invitations: not accepted, not revoked, not expired. */
export async function listPendingInvitations(workspaceId: string, now = new Date()): Promise<InvitationView[]> {
  const rows = await db().invitation.findMany({
    where: { workspaceId, acceptedAt: null, revokedAt: null, expiresAt: { gt: now } },
    orderBy: { createdAt: 'desc' },
  });
  return rows.map(toView);
}

export async function revokeInvitation(
  workspaceId: string,
  invitationId: string,
  actor: AuditActor,
  now = new Date(),
): Promise<void> {
  await db().$transaction(async (tx) => {
    const row = await tx.invitation.findFirst({
      where: { id: invitationId, workspaceId },
      select: { email: true, role: true },
    });
    if (!row) throw new AppError('not_found', 'Invitation not found');
    if (actor.userId !== null) {
      const acting = await tx.membership.findUnique({
        where: { userId_workspaceId: { userId: actor.userId, workspaceId } },
        select: { role: true },
      });
      if (!acting || !isRole(acting.role) || !canManageMember(acting.role, roleOf(row.role))) {
        throw new AppError('role_forbidden', 'Only an Owner can revoke an invitation to become Owner.');
      }
    }
    const { count } = await tx.invitation.updateMany({
      where: { id: invitationId, workspaceId, acceptedAt: null, revokedAt: null },
      data: { revokedAt: now },
    });
    if (count === 0) throw new AppError('invitation_invalid', 'This invitation was already accepted or revoked.');
    await recordAudit(tx, {
      workspaceId,
      action: 'member.invitation_revoked',
      actor,
      target: `invitation ${row.email}`,
      details: { role: row.role },
    });
  });
}

export type InvitationLookup =
  { status: 'valid'; invitation: InvitationPreview } | { status: 'expired' | 'used' | 'revoked' | 'unknown' };

/** What a link is, for the invitation page: valid (with what it offers), or why not. Reads only. */
export async function lookupInvitation(token: string, now = new Date()): Promise<InvitationLookup> {
  if (!/^[A-Za-z0-9_-]{20,100}$/.test(token)) return { status: 'unknown' };
  const row = await db().invitation.findUnique({
    where: { tokenHash: hashToken(token) },
    include: { workspace: { select: { name: true } } },
  });
  if (!row) return { status: 'unknown' };
  if (row.acceptedAt) return { status: 'used' };
  if (row.revokedAt) return { status: 'revoked' };
  if (row.expiresAt <= now) return { status: 'expired' };
  return {
    status: 'valid',
    invitation: {
      id: row.id,
      workspaceId: row.workspaceId,
      workspaceName: row.workspace.name,
      email: row.email,
      role: roleOf(row.role),
      invitedByLabel: row.invitedByLabel,
      expiresAt: row.expiresAt,
    },
  };
}

/**
 * Accepts an invitation for a user (or a user being created in the same transaction, `tx`): consumes the
 * invitation with one compare-and-set (single use, whatever the concurrency), checks the account's email is the
 * invited one, and adds the membership with its audit row. Returns the workspace joined.
 */
export async function acceptInvitationIn(
  tx: Tx,
  token: string,
  user: { id: string; email: string | null },
  now = new Date(),
): Promise<{ workspaceId: string; role: Role }> {
  const row = await tx.invitation.findUnique({
    where: { tokenHash: hashToken(token) },
    select: { id: true, workspaceId: true, email: true, role: true, invitedByLabel: true },
  });
  if (!row) throw new AppError('invitation_invalid', 'This invitation link is not valid.');
  if ((user.email ?? '').toLowerCase() !== row.email) {
    throw new AppError(
      'invitation_wrong_account',
      `This invitation is for ${row.email}. Sign in with that email to accept it.`,
    );
  }
  const { count } = await tx.invitation.updateMany({
    where: { id: row.id, acceptedAt: null, revokedAt: null, expiresAt: { gt: now } },
    data: { acceptedAt: now, acceptedByUserId: user.id },
  });
  if (count !== 1)
    throw new AppError(
      'invitation_invalid',
      'This invitation has expired, was revoked, or was already used. Ask for a new one.',
    );
  const role = roleOf(row.role);
  await addMember(tx, {
    workspaceId: row.workspaceId,
    userId: user.id,
    role,
    actor: { userId: user.id, label: user.email ?? user.id, ip: null },
    action: 'member.joined',
    details: { invited_by: row.invitedByLabel },
  });
  return { workspaceId: row.workspaceId, role };
}

/**
 * A signed-in user accepts: see acceptInvitationIn. The email compared is the account's own, read from the
 * database — never what a session or an OAuth provider reported (a GitHub-only account has none, and cannot accept).
 */
export async function acceptInvitation(
  token: string,
  userId: string,
  now = new Date(),
): Promise<{ workspaceId: string; role: Role }> {
  return db().$transaction(async (tx) => {
    const user = await tx.user.findUnique({ where: { id: userId }, select: { id: true, email: true } });
    if (!user) throw new AppError('invitation_wrong_account', 'This account no longer exists.');
    return acceptInvitationIn(tx, token, user, now);
  });
}

/** The account's own email (null for a GitHub-only account): what an invitation is compared with. */
export async function accountEmail(userId: string): Promise<string | null> {
  return (await db().user.findUnique({ where: { id: userId }, select: { email: true } }))?.email ?? null;
}

/** Whether an account exists for the invited email: the page offers "sign in" or "create your account". */
export async function accountExists(email: string): Promise<boolean> {
  return (await db().user.count({ where: { email: email.toLowerCase() } })) > 0;
}

/**
 * Sign-up through an invitation: creates the account with the invited email (no workspace of its own) and joins
 * the workspace, in one transaction — a failed acceptance leaves no account behind. The email comes from the
 * invitation, never from the form. An email that already has an account is told to sign in instead: whoever
 * holds the link already knows the address it was sent to. Throttled like every sign-up.
 */
export async function signUpWithInvitation(
  token: string,
  password: string,
  address: string | null,
  now = new Date(),
): Promise<{ email: string; workspaceId: string }> {
  const lookup = await lookupInvitation(token, now);
  if (lookup.status !== 'valid')
    throw new AppError(
      'invitation_invalid',
      'This invitation has expired, was revoked, or was already used. Ask for a new one.',
    );
  const email = lookup.invitation.email;
  const parsedPassword = NewPassword.safeParse(password);
  if (!parsedPassword.success) {
    const message = parsedPassword.error.issues[0]?.message ?? 'Choose a stronger password';
    throw new AppError('validation_failed', message, { errors: [{ path: 'password', message }] });
  }
  if (!(await takeSignUpSlot(address, env().SIGNUP_LIMIT_PER_HOUR))) {
    throw new AppError('too_many_attempts', 'Too many sign-ups from your network. Try again in an hour.');
  }
  if (await accountExists(email))
    throw new AppError('email_taken', `An account with ${email} already exists: sign in to accept the invitation.`);
  const passwordHash = await hashPassword(parsedPassword.data);
  const userId = newId('user');
  try {
    const joined = await db().$transaction(async (tx) => {
      await tx.user.create({ data: { id: userId, email, passwordHash } });
      return acceptInvitationIn(tx, token, { id: userId, email }, now);
    });
    return { email, workspaceId: joined.workspaceId };
  } catch (error) {
    if (typeof error === 'object' && error !== null && 'code' in error && error.code === 'P2002') {
      throw new AppError('email_taken', `An account with ${email} already exists: sign in to accept the invitation.`);
    }
    throw error;
  }
}
