'use server';

import { revalidatePath } from 'next/cache';
import { redirect } from 'next/navigation';
import { z } from 'zod';
import { withWorkspace } from '@/lib/portal/action';
import { portalActor } from '@/lib/portal/actor';
import { createInvitation, InviteInput, revokeInvitation } from '@/lib/teams/invitations';
import { sendInvitationMail } from '@/lib/teams/mail';
import { changeMemberRole, removeMember, transferOwnership } from '@/lib/teams/members';
import { ROLES } from '@/lib/teams/roles';

/**
 * The Members page. Every rule (who may invite whom, last Owner, Admins below Owner, step-up) lives in
 * lib/teams and is checked there, in the change's transaction; user ids from the form are only data.
 */
const UserId = z.string().regex(/^usr_[0-9A-Za-z]{24}$/, 'Unknown member');

/** Invites an email: the link comes back to this form only (shown once) and is mailed when SMTP_URL is set. */
export const inviteMember = withWorkspace({ permission: 'members.manage' }, InviteInput, async (ctx, input) => {
  const { invitation, url } = await createInvitation(ctx.workspace.id, input, await portalActor(ctx));
  const mail = await sendInvitationMail({
    to: invitation.email,
    workspaceName: ctx.workspace.name,
    role: invitation.role,
    invitedBy: ctx.email,
    url,
    expiresAt: invitation.expiresAt,
  });
  revalidatePath('/members');
  return { email: invitation.email, role: invitation.role, url, mail, expiresAt: invitation.expiresAt.toISOString() };
});

export const revokeInvitationAction = withWorkspace(
  { permission: 'members.manage' },
  z.object({
    invitationId: z.string().regex(/^ivt_[0-9A-Za-z]{24}$/, 'Unknown invitation'),
    email: z.string().max(254),
  }),
  async (ctx, input) => {
    await revokeInvitation(ctx.workspace.id, input.invitationId, await portalActor(ctx));
    revalidatePath('/members');
    return { email: input.email };
  },
);

export const changeRole = withWorkspace(
  { permission: 'members.manage' },
  z.object({ userId: UserId, role: z.enum(ROLES, { error: 'Choose a role' }) }),
  async (ctx, input) => {
    const member = await changeMemberRole(ctx.workspace.id, input.userId, input.role, await portalActor(ctx));
    revalidatePath('/members');
    return { email: member.email, role: member.role };
  },
);

export const removeMemberAction = withWorkspace(
  { permission: 'members.manage' },
  z.object({ userId: UserId }),
  async (ctx, input) => {
    const removed = await removeMember(ctx.workspace.id, input.userId, await portalActor(ctx));
    revalidatePath('/members');
    revalidatePath('/keys');
    return removed;
  },
);

/** Leaving is every member's own choice (not the last Owner's); the session moves to another workspace. */
export const leaveWorkspace = withWorkspace({ permission: 'self.manage' }, z.object({}), async (ctx) => {
  await removeMember(ctx.workspace.id, ctx.userId, await portalActor(ctx));
  revalidatePath('/', 'layout');
  redirect('/');
});

export const transferOwnershipAction = withWorkspace(
  { permission: 'ownership.transfer' },
  z.object({ userId: UserId }),
  async (ctx, input) => {
    await transferOwnership(ctx.workspace.id, input.userId, await portalActor(ctx));
    revalidatePath('/members');
    return { userId: input.userId };
  },
);
