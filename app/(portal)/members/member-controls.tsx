'use client';

import { useRouter } from 'next/navigation';
import { useEffect } from 'react';
import { ConfirmAction } from '@/components/confirm-action';
import { useAnnounce } from '@/components/status';
import { useStepUp } from '@/components/step-up';
import { buttonClass, inputClass } from '@/components/ui';
import { useKeptForm } from '@/components/use-kept-form';
import {
  changeRole,
  leaveWorkspace,
  removeMemberAction,
  revokeInvitationAction,
  transferOwnershipAction,
} from './actions';

type RoleOption = { value: string; label: string };

/** Change a member's role: asks for a step-up when the server says so (every role change needs one). */
export function ChangeRoleForm({
  userId,
  email,
  role,
  roles,
}: {
  userId: string;
  email: string;
  role: string;
  roles: RoleOption[];
}) {
  const [state, onSubmit, pending] = useKeptForm(useStepUp(changeRole));
  const announce = useAnnounce();
  const router = useRouter();
  useEffect(() => {
    if (!state) return;
    announce(
      state.ok ? 'success' : 'error',
      state.ok
        ? `${state.data.email ?? email} is now ${roles.find((r) => r.value === state.data.role)?.label ?? state.data.role}.`
        : state.error,
    );
    router.refresh();
  }, [state, announce, router, email, roles]);
  const id = `role-${userId}`;
  return (
    <form onSubmit={onSubmit} className="flex flex-wrap items-center gap-2" aria-label={`Change the role of ${email}`}>
      <input type="hidden" name="userId" value={userId} />
      <label htmlFor={id} className="sr-only">
        Role of {email}
      </label>
      <select id={id} name="role" defaultValue={role} className={`${inputClass} w-auto py-1.5`}>
        {roles.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
      <button
        type="submit"
        className={`${buttonClass.secondary} py-1.5`}
        disabled={pending}
        aria-label={`Change role of ${email}`}
      >
        Change role
      </button>
    </form>
  );
}

export function RemoveMemberButton({ userId, email }: { userId: string; email: string }) {
  const remove = useStepUp(removeMemberAction);
  return (
    <ConfirmAction
      action={remove}
      fields={{ userId }}
      trigger="Remove"
      triggerLabel={`Remove ${email}`}
      title={`Remove ${email}?`}
      confirm="Remove member"
      success={(data) => `${data.email} was removed: their next request no longer reaches this workspace.`}
    >
      They lose access to this workspace on their next request. API keys they created keep working (your integrations do
      not break); the Keys page lists them so you can roll each one.
    </ConfirmAction>
  );
}

export function TransferOwnershipButton({ userId, email }: { userId: string; email: string }) {
  const transfer = useStepUp(transferOwnershipAction);
  return (
    <ConfirmAction
      action={transfer}
      fields={{ userId }}
      trigger="Make Owner"
      triggerLabel={`Transfer ownership to ${email}`}
      title={`Transfer ownership to ${email}?`}
      confirm="Transfer ownership"
      tone="primary"
      success={() => `${email} is now an Owner; you are an Admin.`}
    >
      {email} becomes an Owner (plan, members, ownership) and you become an Admin. Only an Owner can give it back.
    </ConfirmAction>
  );
}

export function RevokeInvitationButton({ invitationId, email }: { invitationId: string; email: string }) {
  return (
    <ConfirmAction
      action={revokeInvitationAction}
      fields={{ invitationId, email }}
      trigger="Revoke"
      triggerLabel={`Revoke the invitation for ${email}`}
      title={`Revoke the invitation for ${email}?`}
      confirm="Revoke invitation"
      success={(data) => `The invitation for ${data.email} was revoked: its link no longer works.`}
    >
      The link stops working at once. You can invite {email} again later.
    </ConfirmAction>
  );
}

export function LeaveWorkspaceButton({ workspaceName }: { workspaceName: string }) {
  const leave = useStepUp(leaveWorkspace);
  return (
    <ConfirmAction
      action={leave}
      fields={{}}
      trigger="Leave this workspace"
      title={`Leave ${workspaceName}?`}
      confirm="Leave workspace"
      success={() => 'You left the workspace.'}
    >
      You lose access at once; an Owner or Admin can invite you again.
    </ConfirmAction>
  );
}
