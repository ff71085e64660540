import type { Metadata } from 'next';
import { LocalTime } from '@/components/local-time';
import { Badge, Card, DataTable, PageHeader, Td } from '@/components/ui';
import { requirePage } from '@/lib/portal/context';
import { listPendingInvitations } from '@/lib/teams/invitations';
import { listMembers } from '@/lib/teams/members';
import { assignableRoles, can, canManageMember, ROLE_DESCRIPTIONS, ROLE_LABELS, ROLES } from '@/lib/teams/roles';
import { InviteForm } from './invite-form';
import {
  ChangeRoleForm,
  LeaveWorkspaceButton,
  RemoveMemberButton,
  RevokeInvitationButton,
  TransferOwnershipButton,
} from './member-controls';

export const metadata: Metadata = { title: 'Members' };

export default async function MembersPage() {
  const ctx = await requirePage('/members');
  const manage = can(ctx.role, 'members.manage');
  const [members, invitations] = await Promise.all([
    listMembers(ctx.workspace.id),
    manage ? listPendingInvitations(ctx.workspace.id) : Promise.resolve([]),
  ]);
  const roleOptions = assignableRoles(ctx.role).map((role) => ({
    value: role,
    label: ROLE_LABELS[role],
    description: ROLE_DESCRIPTIONS[role],
  }));
  const owners = members.filter((m) => m.role === 'owner').length;
  const lastOwner = ctx.role === 'owner' && owners === 1;
  return (
    <>
      <PageHeader
        title="Members"
        description="People who work in this workspace, and what their role lets them do. Role changes, removals and ownership transfers ask you to confirm it is you."
      />
      <div className="space-y-6">
        {manage ? (
          <Card title="Invite a member">
            <InviteForm roles={roleOptions} />
          </Card>
        ) : null}
        <Card title="Members">
          <DataTable
            testId="members-table"
            columns={[{ label: 'Member' }, { label: 'Role' }, { label: 'Joined' }, { label: 'Actions', hidden: true }]}
          >
            {members.map((member) => {
              const email = member.email ?? member.userId;
              const self = member.userId === ctx.userId;
              const mayManage = !self && canManageMember(ctx.role, member.role);
              return (
                <tr key={member.userId} data-member={email}>
                  <Td label="Member" className="break-words font-medium">
                    {email}
                    {self ? <span className="ml-2 text-xs font-normal text-slate-600">(you)</span> : null}
                  </Td>
                  <Td label="Role">
                    {mayManage ? (
                      <ChangeRoleForm userId={member.userId} email={email} role={member.role} roles={roleOptions} />
                    ) : (
                      <Badge tone={member.role === 'owner' ? 'violet' : 'gray'}>{ROLE_LABELS[member.role]}</Badge>
                    )}
                  </Td>
                  <Td label="Joined">
                    <LocalTime value={member.joinedAt} />
                  </Td>
                  <Td label="">
                    <div className="flex flex-wrap gap-2">
                      {mayManage ? <RemoveMemberButton userId={member.userId} email={email} /> : null}
                      {!self && can(ctx.role, 'ownership.transfer') && member.role !== 'owner' ? (
                        <TransferOwnershipButton userId={member.userId} email={email} />
                      ) : null}
                    </div>
                  </Td>
                </tr>
              );
            })}
          </DataTable>
          <div className="mt-4 flex flex-wrap items-center gap-3 text-sm text-slate-600">
            {lastOwner ? (
              <p>
                You are the workspace&apos;s only Owner: make another member Owner before you can leave or change your
                own role.
              </p>
            ) : (
              <LeaveWorkspaceButton workspaceName={ctx.workspace.name} />
            )}
          </div>
        </Card>
        {manage ? (
          <Card title="Pending invitations">
            {invitations.length === 0 ? (
              <p className="text-sm text-slate-600">No pending invitations.</p>
            ) : (
              <DataTable
                testId="invitations-table"
                columns={[
                  { label: 'Email' },
                  { label: 'Role' },
                  { label: 'Invited by' },
                  { label: 'Expires' },
                  { label: 'Actions', hidden: true },
                ]}
              >
                {invitations.map((invitation) => (
                  <tr key={invitation.id} data-invitation={invitation.email}>
                    <Td label="Email" className="break-words font-medium">
                      {invitation.email}
                    </Td>
                    <Td label="Role">{ROLE_LABELS[invitation.role]}</Td>
                    <Td label="Invited by" className="break-words">
                      {invitation.invitedByLabel}
                    </Td>
                    <Td label="Expires">
                      <LocalTime value={invitation.expiresAt} />
                    </Td>
                    <Td label="">
                      {canManageMember(ctx.role, invitation.role) ? (
                        <RevokeInvitationButton invitationId={invitation.id} email={invitation.email} />
                      ) : null}
                    </Td>
                  </tr>
                ))}
              </DataTable>
            )}
          </Card>
        ) : null}
        <Card title="Roles">
          <dl className="grid gap-2 text-sm sm:grid-cols-[8rem_1fr]">
            {ROLES.map((role) => (
              <div key={role} className="contents">
                <dt className="font-semibold">{ROLE_LABELS[role]}</dt>
                <dd className="text-slate-700">{ROLE_DESCRIPTIONS[role]}</dd>
              </div>
            ))}
          </dl>
        </Card>
      </div>
    </>
  );
}
