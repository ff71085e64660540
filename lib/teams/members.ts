import { requireStepUp, stepUpDetail } from '../auth/step-up';
import { recordAudit, type AuditActor } from '../audit/audit';
import { db, type Prisma } from '../db';
import { AppError } from '../errors';
import { newId } from '../ids';
import { defaultPlan } from '../plans';
import { assignableRoles, canManageMember, isRole, ROLE_LABELS, type Role } from './roles';

/**
 * Workspace membership: who belongs, with which role, and the rules around changing it (docs/portal.md, "Members
 * and roles"). Every change runs in one transaction with its audit row; changes a person makes from the portal
 * (role changes, removals, ownership) need a step-up (lib/auth/step-up.ts), checked inside that transaction.
 *
 * `actorRole` is the acting member's role as read by the portal for this request (null: the operator CLI, which
 * the role table does not limit). It is re-read under the workspace lock before anything changes.
 */
export interface MemberView {
  userId: string;
  email: string | null;
  role: Role;
  joinedAt: Date;
}

export interface MembershipView {
  workspace: { id: string; name: string; plan: string; createdAt: Date };
  role: Role;
}

type Tx = Prisma.TransactionClient;

function roleOf(value: string): Role {
  if (!isRole(value)) throw new Error(`unknown role ${value} in memberships`); // the CHECK constraint forbids it
  return value;
}

/** The user's workspaces and role in each, oldest membership first. */
export async function listMemberships(userId: string): Promise<MembershipView[]> {
  const rows = await db().membership.findMany({
    where: { userId },
    orderBy: { createdAt: 'asc' },
    select: { role: true, workspace: { select: { id: true, name: true, plan: true, createdAt: true } } },
  });
  return rows.map((row) => ({ workspace: row.workspace, role: roleOf(row.role) }));
}

export async function listMembers(workspaceId: string): Promise<MemberView[]> {
  const rows = await db().membership.findMany({
    where: { workspaceId },
    orderBy: { createdAt: 'asc' },
    select: { userId: true, role: true, createdAt: true, user: { select: { email: true } } },
  });
  return rows.map((row) => ({
    userId: row.userId,
    email: row.user.email,
    role: roleOf(row.role),
    joinedAt: row.createdAt,
  }));
}

/** Locks the workspace row (serialises membership changes, so "last Owner" counts cannot race). */
async function lockWorkspace(tx: Tx, workspaceId: string): Promise<void> {
  const locked = await tx.$queryRaw<{ id: string }[]>`SELECT id FROM workspaces WHERE id = ${workspaceId} FOR UPDATE`;
  if (locked.length === 0) throw new AppError('not_found', 'Workspace not found');
}

async function memberRole(tx: Tx, workspaceId: string, userId: string): Promise<Role | null> {
  const row = await tx.membership.findUnique({
    where: { userId_workspaceId: { userId, workspaceId } },
    select: { role: true },
  });
  return row ? roleOf(row.role) : null;
}

async function ownerCount(tx: Tx, workspaceId: string): Promise<number> {
  return tx.membership.count({ where: { workspaceId, role: 'owner' } });
}

/** The acting person's current role, re-read under the lock (null for the operator). Refuses a non-member. */
async function actingRole(tx: Tx, workspaceId: string, actor: AuditActor): Promise<Role | null> {
  if (actor.userId === null) return null;
  const role = await memberRole(tx, workspaceId, actor.userId);
  if (!role) throw new AppError('not_found', 'Workspace not found');
  return role;
}

function refuse(message: string): AppError {
  return new AppError('role_forbidden', message);
}

async function emailOf(tx: Tx, userId: string): Promise<string> {
  const user = await tx.user.findUnique({ where: { id: userId }, select: { email: true } });
  return user?.email ?? userId;
}

/**
 * Gives a member another role. Owners may give any role; Admins only roles below Owner, and never to an Owner.
 * The last Owner keeps the role (transfer ownership first).
 */
export async function changeMemberRole(
  workspaceId: string,
  targetUserId: string,
  role: Role,
  actor: AuditActor,
): Promise<MemberView> {
  return db().$transaction(async (tx) => {
    await lockWorkspace(tx, workspaceId);
    const acting = await actingRole(tx, workspaceId, actor);
    const current = await memberRole(tx, workspaceId, targetUserId);
    if (!current) throw new AppError('not_found', 'Member not found');
    if (acting !== null) {
      if (!canManageMember(acting, current))
        throw refuse(`As ${ROLE_LABELS[acting]} you cannot change the role of an ${ROLE_LABELS[current]}.`);
      if (!assignableRoles(acting).includes(role))
        throw refuse(`As ${ROLE_LABELS[acting]} you cannot make someone ${ROLE_LABELS[role]}.`);
    }
    if (current === 'owner' && role !== 'owner' && (await ownerCount(tx, workspaceId)) === 1) {
      throw new AppError(
        'last_owner',
        'This is the workspace’s last Owner: transfer ownership to another member first.',
      );
    }
    const proof = await requireStepUp(tx, actor);
    const updated = await tx.membership.update({
      where: { userId_workspaceId: { userId: targetUserId, workspaceId } },
      data: { role },
      select: { userId: true, role: true, createdAt: true, user: { select: { email: true } } },
    });
    await recordAudit(tx, {
      workspaceId,
      action: 'member.role_changed',
      actor,
      target: `member ${updated.user.email ?? targetUserId}`,
      details: { from: current, to: role, ...stepUpDetail(proof) },
    });
    return {
      userId: updated.userId,
      email: updated.user.email,
      role: roleOf(updated.role),
      joinedAt: updated.createdAt,
    };
  });
}

/**
 * Removes a member (or, with targetUserId = actor.userId, leaves). Their sessions lose the workspace on their next
 * request: the portal re-reads the membership on every request (lib/portal/context.ts). Keys they created stay
 * (the workspace's integrations keep working); the Members and Keys pages list them for a roll.
 */
export async function removeMember(
  workspaceId: string,
  targetUserId: string,
  actor: AuditActor,
): Promise<{ email: string }> {
  return db().$transaction(async (tx) => {
    await lockWorkspace(tx, workspaceId);
    const acting = await actingRole(tx, workspaceId, actor);
    const current = await memberRole(tx, workspaceId, targetUserId);
    if (!current) throw new AppError('not_found', 'Member not found');
    const leaving = actor.userId === targetUserId;
    if (acting !== null && !leaving && !canManageMember(acting, current)) {
      throw refuse(`As ${ROLE_LABELS[acting]} you cannot remove an ${ROLE_LABELS[current]}.`);
    }
    if (current === 'owner' && (await ownerCount(tx, workspaceId)) === 1) {
      throw new AppError(
        'last_owner',
        'This is the workspace’s last Owner: transfer ownership to another member first.',
      );
    }
    const proof = await requireStepUp(tx, actor);
    const email = await emailOf(tx, targetUserId);
    await tx.membership.delete({ where: { userId_workspaceId: { userId: targetUserId, workspaceId } } });
    await recordAudit(tx, {
      workspaceId,
      action: 'member.removed',
      actor,
      target: `member ${email}`,
      details: { role: current, left: leaving, ...stepUpDetail(proof) },
    });
    return { email };
  });
}

/**
 * Makes another member an Owner and the acting Owner an Admin, in one step. Only an Owner can (the operator CLI
 * sets roles with member:add instead).
 */
export async function transferOwnership(
  workspaceId: string,
  toUserId: string,
  actor: AuditActor & { userId: string },
): Promise<void> {
  await db().$transaction(async (tx) => {
    await lockWorkspace(tx, workspaceId);
    const acting = await actingRole(tx, workspaceId, actor);
    if (acting !== 'owner') throw refuse('Only an Owner can transfer ownership.');
    if (toUserId === actor.userId)
      throw new AppError('validation_failed', 'Choose another member to transfer ownership to.');
    const target = await memberRole(tx, workspaceId, toUserId);
    if (!target) throw new AppError('not_found', 'Member not found');
    const proof = await requireStepUp(tx, actor);
    await tx.membership.update({
      where: { userId_workspaceId: { userId: toUserId, workspaceId } },
      data: { role: 'owner' },
    });
    await tx.membership.update({
      where: { userId_workspaceId: { userId: actor.userId, workspaceId } },
      data: { role: 'admin' },
    });
    await recordAudit(tx, {
      workspaceId,
      action: 'ownership.transferred',
      actor,
      target: `member ${await emailOf(tx, toUserId)}`,
      details: { new_owner_previous_role: target, previous_owner_now: 'admin', ...stepUpDetail(proof) },
    });
  });
}

/**
 * Adds an existing user to a workspace with a role: the operator's `member:add`, and an accepted invitation
 * (lib/teams/invitations.ts, with its own transaction client).
 */
export async function addMember(
  tx: Tx,
  entry: {
    workspaceId: string;
    userId: string;
    role: Role;
    actor: AuditActor;
    action: 'member.added' | 'member.joined';
    details?: Record<string, string>;
  },
): Promise<void> {
  if (await memberRole(tx, entry.workspaceId, entry.userId))
    throw new AppError('already_member', 'This person is already a member of the workspace.');
  await tx.membership.create({ data: { workspaceId: entry.workspaceId, userId: entry.userId, role: entry.role } });
  await recordAudit(tx, {
    workspaceId: entry.workspaceId,
    action: entry.action,
    actor: entry.actor,
    target: `member ${await emailOf(tx, entry.userId)}`,
    details: { role: entry.role, ...entry.details },
  });
}

/** The operator's `member:add`: an existing account (by email) joins a workspace with a role. */
export async function addMemberByEmail(
  workspaceId: string,
  email: string,
  role: Role,
  actor: AuditActor,
): Promise<MemberView> {
  const normalized = email.trim().toLowerCase();
  return db().$transaction(async (tx) => {
    await lockWorkspace(tx, workspaceId);
    const user = await tx.user.findUnique({ where: { email: normalized }, select: { id: true } });
    if (!user)
      throw new AppError(
        'not_found',
        `No account with the email ${normalized}: the person signs up first, or invite them from the portal`,
      );
    await addMember(tx, { workspaceId, userId: user.id, role, actor, action: 'member.added' });
    return { userId: user.id, email: normalized, role, joinedAt: new Date() };
  });
}

/** Finds a member of a workspace by email (the operator's `member:remove`). */
export async function memberByEmail(workspaceId: string, email: string): Promise<MemberView | null> {
  const members = await listMembers(workspaceId);
  return members.find((m) => m.email === email.trim().toLowerCase()) ?? null;
}

/** A workspace of the user's own: they are its Owner; the session switches to it (lib/portal/context.ts). */
export async function createWorkspace(
  userId: string,
  name: string,
  actor: AuditActor,
): Promise<{ id: string; name: string }> {
  const id = newId('workspace');
  return db().$transaction(async (tx) => {
    const workspace = await tx.workspace.create({
      data: { id, name, plan: defaultPlan() },
      select: { id: true, name: true },
    });
    await tx.membership.create({ data: { userId, workspaceId: id, role: 'owner' } });
    await recordAudit(tx, {
      workspaceId: id,
      action: 'workspace.created',
      actor,
      target: `workspace ${id}`,
      details: { name },
    });
    return workspace;
  });
}

/** The workspace this session works in: only a choice, re-checked against the membership on every request. */
export async function chooseWorkspace(sessionId: string, userId: string, workspaceId: string): Promise<void> {
  const membership = await db().membership.findUnique({
    where: { userId_workspaceId: { userId, workspaceId } },
    select: { role: true },
  });
  if (!membership) throw new AppError('not_found', 'Workspace not found');
  await db().session.updateMany({ where: { id: sessionId, userId }, data: { activeWorkspaceId: workspaceId } });
}

/** The session's chosen workspace (null: none chosen yet). */
export async function chosenWorkspace(sessionId: string): Promise<string | null> {
  const row = await db().session.findUnique({ where: { id: sessionId }, select: { activeWorkspaceId: true } });
  return row?.activeWorkspaceId ?? null;
}

export interface FormerMemberKey {
  id: number;
  label: string;
  prefix: string;
  environment: 'test' | 'live';
  createdByLabel: string | null;
  createdAt: Date;
}

/**
 * Active keys created by people who are no longer members: leaving does not revoke the workspace's keys (its
 * integrations keep working), but they were able to copy the secret, so the portal offers a roll for each.
 */
export async function keysOfFormerMembers(workspaceId: string, now = new Date()): Promise<FormerMemberKey[]> {
  const rows = await db().$queryRaw<FormerMemberKey[]>`
    SELECT k.id, k.label, k.prefix, k.environment::text AS environment, k.created_by_label AS "createdByLabel", k.created_at AS "createdAt"
    FROM api_keys k
    WHERE k.workspace_id = ${workspaceId}
      AND k.created_by_user_id IS NOT NULL
      AND k.revoked_at IS NULL
      AND (k.expires_at IS NULL OR k.expires_at > ${now})
      AND k.rolled_to_id IS NULL
      AND NOT EXISTS (SELECT 1 FROM memberships m WHERE m.workspace_id = k.workspace_id AND m.user_id = k.created_by_user_id)
    ORDER BY k.id DESC`;
  return rows;
}
