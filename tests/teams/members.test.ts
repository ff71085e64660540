import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { OPERATOR, type AuditActor } from '@/lib/audit/audit';
import { stepUp } from '@/lib/auth/step-up';
import { createSession } from '@/lib/auth/sessions';
import { db } from '@/lib/db';
import { createApiKey } from '@/lib/keys/keys';
import {
  acceptInvitation,
  createInvitation,
  lookupInvitation,
  revokeInvitation,
  signUpWithInvitation,
  INVITATION_TTL_DAYS,
} from '@/lib/teams/invitations';
import {
  addMemberByEmail,
  changeMemberRole,
  keysOfFormerMembers,
  listMembers,
  removeMember,
  transferOwnership,
} from '@/lib/teams/members';
import type { Role } from '@/lib/teams/roles';
import { createUserWithWorkspace } from '@/lib/workspaces/workspaces';

const PASSWORD = 'correct horse battery';

async function person(label: string) {
  const email = `${label}-${randomUUID()}@example.test`;
  const { user, workspace } = await createUserWithWorkspace({
    email,
    password: PASSWORD,
    workspaceName: `${label}'s workspace`,
  });
  return { id: user.id, email, ownWorkspace: workspace.id };
}

/** A portal actor with a live session; `steppedUp` gives that session a real step-up (the password again). */
async function actorFor(
  user: { id: string; email: string },
  steppedUp = true,
): Promise<AuditActor & { userId: string; sessionId: string }> {
  const session = await createSession(user.id);
  const actor = { userId: user.id, label: user.email, ip: null, sessionId: session.id };
  if (steppedUp) await stepUp({ actor, password: PASSWORD });
  return actor;
}

/** A workspace (the owner's own) with one member per other role, added by the operator. */
async function team() {
  const owner = await person('owner');
  const members: Record<Exclude<Role, 'owner'>, { id: string; email: string }> = {
    admin: await person('admin'),
    developer: await person('developer'),
    viewer: await person('viewer'),
  };
  for (const [role, user] of Object.entries(members))
    await addMemberByEmail(owner.ownWorkspace, user.email, role as Role, OPERATOR);
  return { workspaceId: owner.ownWorkspace, owner, ...members };
}

async function auditActions(workspaceId: string): Promise<string[]> {
  const rows = await db().auditLog.findMany({
    where: { workspaceId },
    orderBy: { id: 'asc' },
    select: { action: true },
  });
  return rows.map((row) => row.action);
}

describe('invitations', () => {
  it('are single-use: the second acceptance of the same link is refused and adds nothing', async () => {
    const { workspaceId, owner } = await team();
    const invitee = await person('invitee');
    const { token } = await createInvitation(
      workspaceId,
      { email: invitee.email, role: 'developer' },
      await actorFor(owner),
    );
    await acceptInvitation(token, invitee.id);
    expect((await listMembers(workspaceId)).find((m) => m.userId === invitee.id)?.role).toBe('developer');
    await expect(acceptInvitation(token, invitee.id)).rejects.toMatchObject({ code: 'invitation_invalid' });
    expect(await lookupInvitation(token)).toEqual({ status: 'used' });
  });

  it('two concurrent acceptances of one link: exactly one joins', async () => {
    const { workspaceId, owner } = await team();
    const invitee = await person('racer');
    const { token } = await createInvitation(
      workspaceId,
      { email: invitee.email, role: 'viewer' },
      await actorFor(owner),
    );
    const results = await Promise.allSettled([1, 2, 3].map(() => acceptInvitation(token, invitee.id)));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect((await listMembers(workspaceId)).filter((m) => m.userId === invitee.id)).toHaveLength(1);
  });

  it(`expire after ${INVITATION_TTL_DAYS} days`, async () => {
    const { workspaceId, owner } = await team();
    const invitee = await person('late');
    const created = new Date(Date.now() - INVITATION_TTL_DAYS * 86_400_000 - 1000);
    const { token, invitation } = await createInvitation(
      workspaceId,
      { email: invitee.email, role: 'viewer' },
      await actorFor(owner),
      created,
    );
    expect(invitation.expiresAt.getTime() - created.getTime()).toBe(INVITATION_TTL_DAYS * 86_400_000);
    expect(await lookupInvitation(token)).toEqual({ status: 'expired' });
    await expect(acceptInvitation(token, invitee.id)).rejects.toMatchObject({ code: 'invitation_invalid' });
    // One second before the end it still worked.
    expect((await lookupInvitation(token, new Date(invitation.expiresAt.getTime() - 1000))).status).toBe('valid');
  });

  it('are bound to the invited email: another account is refused and the invitation stays usable', async () => {
    const { workspaceId, owner } = await team();
    const invitee = await person('invitee');
    const stranger = await person('stranger');
    const { token } = await createInvitation(
      workspaceId,
      { email: invitee.email, role: 'admin' },
      await actorFor(owner),
    );
    await expect(acceptInvitation(token, stranger.id)).rejects.toMatchObject({ code: 'invitation_wrong_account' });
    expect((await listMembers(workspaceId)).some((m) => m.userId === stranger.id)).toBe(false);
    expect((await lookupInvitation(token)).status).toBe('valid');
    await acceptInvitation(token, invitee.id);
    expect((await listMembers(workspaceId)).find((m) => m.userId === invitee.id)?.role).toBe('admin');
  });

  it('a revoked invitation and a replaced one no longer work; revoking is audited', async () => {
    const { workspaceId, owner } = await team();
    const email = `twice-${randomUUID()}@example.test`;
    const actor = await actorFor(owner);
    const first = await createInvitation(workspaceId, { email, role: 'viewer' }, actor);
    const second = await createInvitation(workspaceId, { email, role: 'developer' }, actor);
    expect(await lookupInvitation(first.token)).toEqual({ status: 'revoked' });
    await revokeInvitation(workspaceId, second.invitation.id, actor);
    expect(await lookupInvitation(second.token)).toEqual({ status: 'revoked' });
    expect(await auditActions(workspaceId)).toEqual(
      expect.arrayContaining(['member.invited', 'member.invitation_revoked']),
    );
  });

  it('sign-up through an invitation creates the account with the invited email only, and joins', async () => {
    const { workspaceId, owner } = await team();
    const email = `new-${randomUUID()}@example.test`;
    const { token } = await createInvitation(workspaceId, { email, role: 'developer' }, await actorFor(owner));
    const joined = await signUpWithInvitation(token, 'quiet orchid lantern', null);
    expect(joined).toEqual({ email, workspaceId });
    const user = await db().user.findUniqueOrThrow({
      where: { email },
      select: { id: true, memberships: { select: { workspaceId: true, role: true } } },
    });
    // No workspace of their own: only the one they were invited to.
    expect(user.memberships).toEqual([{ workspaceId, role: 'developer' }]);
    await expect(signUpWithInvitation(token, 'quiet orchid lantern', null)).rejects.toMatchObject({
      code: 'invitation_invalid',
    });
  });

  it('an Admin cannot invite an Owner; a Developer cannot invite at all', async () => {
    const { workspaceId, admin, developer } = await team();
    await expect(
      createInvitation(workspaceId, { email: `x-${randomUUID()}@example.test`, role: 'owner' }, await actorFor(admin)),
    ).rejects.toMatchObject({ code: 'role_forbidden' });
    await expect(
      createInvitation(
        workspaceId,
        { email: `x-${randomUUID()}@example.test`, role: 'viewer' },
        await actorFor(developer),
      ),
    ).rejects.toMatchObject({ code: 'role_forbidden' });
    await createInvitation(
      workspaceId,
      { email: `x-${randomUUID()}@example.test`, role: 'admin' },
      await actorFor(admin),
    );
  });
});

describe('the last Owner', () => {
  it('cannot be demoted, removed, or leave; after a transfer the former Owner can', async () => {
    const { workspaceId, owner, admin } = await team();
    const ownerActor = await actorFor(owner);
    await expect(changeMemberRole(workspaceId, owner.id, 'admin', ownerActor)).rejects.toMatchObject({
      code: 'last_owner',
    });
    await expect(removeMember(workspaceId, owner.id, ownerActor)).rejects.toMatchObject({ code: 'last_owner' });
    await expect(removeMember(workspaceId, owner.id, OPERATOR)).rejects.toMatchObject({ code: 'last_owner' });
    await transferOwnership(workspaceId, admin.id, ownerActor);
    const roles = Object.fromEntries((await listMembers(workspaceId)).map((m) => [m.userId, m.role]));
    expect(roles[admin.id]).toBe('owner');
    expect(roles[owner.id]).toBe('admin');
    // Now the new Owner is the last one.
    await expect(changeMemberRole(workspaceId, admin.id, 'viewer', await actorFor(admin))).rejects.toMatchObject({
      code: 'last_owner',
    });
    await removeMember(workspaceId, owner.id, await actorFor(owner)); // the former Owner leaves
    expect(await auditActions(workspaceId)).toEqual(
      expect.arrayContaining(['ownership.transferred', 'member.removed']),
    );
  });

  it('two Owners demoting each other at once: one succeeds, one Owner always remains', async () => {
    const { workspaceId, owner, admin } = await team();
    await changeMemberRole(workspaceId, admin.id, 'owner', await actorFor(owner));
    const [a, b] = [await actorFor(owner), await actorFor(admin)];
    const results = await Promise.allSettled([
      changeMemberRole(workspaceId, admin.id, 'viewer', a),
      changeMemberRole(workspaceId, owner.id, 'viewer', b),
    ]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect((await listMembers(workspaceId)).filter((m) => m.role === 'owner')).toHaveLength(1);
  });
});

describe('membership changes', () => {
  it('need a step-up, and change nothing without one', async () => {
    const { workspaceId, owner, viewer } = await team();
    const noProof = await actorFor(owner, false);
    await expect(changeMemberRole(workspaceId, viewer.id, 'developer', noProof)).rejects.toMatchObject({
      code: 'step_up_required',
    });
    await expect(removeMember(workspaceId, viewer.id, noProof)).rejects.toMatchObject({ code: 'step_up_required' });
    await expect(transferOwnership(workspaceId, viewer.id, noProof)).rejects.toMatchObject({
      code: 'step_up_required',
    });
    expect((await listMembers(workspaceId)).find((m) => m.userId === viewer.id)?.role).toBe('viewer');
  });

  it('an Admin manages members below Owner only, and never makes an Owner', async () => {
    const { workspaceId, owner, admin, viewer } = await team();
    const adminActor = await actorFor(admin);
    await expect(changeMemberRole(workspaceId, owner.id, 'viewer', adminActor)).rejects.toMatchObject({
      code: 'role_forbidden',
    });
    await expect(removeMember(workspaceId, owner.id, adminActor)).rejects.toMatchObject({ code: 'role_forbidden' });
    await expect(changeMemberRole(workspaceId, viewer.id, 'owner', adminActor)).rejects.toMatchObject({
      code: 'role_forbidden',
    });
    await expect(transferOwnership(workspaceId, viewer.id, adminActor)).rejects.toMatchObject({
      code: 'role_forbidden',
    });
    const changed = await changeMemberRole(workspaceId, viewer.id, 'developer', adminActor);
    expect(changed.role).toBe('developer');
  });

  it("are audited with who and the step-up; a removed member's keys stay and are listed for a roll", async () => {
    const { workspaceId, owner, developer } = await team();
    const devActor = await actorFor(developer);
    const { key } = await createApiKey(workspaceId, { label: 'dev laptop', environment: 'test' }, devActor);
    expect(key.createdByUserId).toBe(developer.id);
    expect(key.createdByLabel).toBe(developer.email);
    expect(await keysOfFormerMembers(workspaceId)).toEqual([]);
    await removeMember(workspaceId, developer.id, await actorFor(owner));
    const listed = await keysOfFormerMembers(workspaceId);
    expect(listed.map((k) => k.id)).toEqual([key.id]);
    expect(listed[0]?.createdByLabel).toBe(developer.email);
    const row = await db().auditLog.findFirstOrThrow({
      where: { workspaceId, action: 'member.removed' },
      orderBy: { id: 'desc' },
    });
    expect(row.actorLabel).toBe(owner.email);
    expect(row.target).toBe(`member ${developer.email}`);
    expect(row.details).toMatchObject({ role: 'developer', step_up: 'password' });
  });
});
