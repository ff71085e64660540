'use client';

import Link from 'next/link';
import { useActionState } from 'react';
import type { ActionResult, ActionState } from '@/lib/portal/action';
import { buttonClass, inputClass } from './ui';

export interface SwitcherWorkspace {
  id: string;
  name: string;
  roleLabel: string;
}

/**
 * The header's workspace switcher: the choice goes to the server, which keeps it on the session only if the user
 * is a member (and checks it again on every request). Works without JavaScript (a plain form and a button).
 */
export function WorkspaceSwitcher({
  current,
  workspaces,
  switchAction,
}: {
  current: string;
  workspaces: SwitcherWorkspace[];
  switchAction: (previous: ActionState<never>, formData: FormData) => Promise<ActionResult<never>>;
}) {
  const [state, action, pending] = useActionState(switchAction, null);
  return (
    <div className="flex flex-wrap items-center gap-2">
      {workspaces.length > 1 ? (
        <form action={action} className="flex items-center gap-2" aria-label="Switch workspace">
          <label htmlFor="workspace-switcher" className="sr-only">
            Workspace
          </label>
          <select
            id="workspace-switcher"
            name="workspaceId"
            defaultValue={current}
            className={`${inputClass} w-auto max-w-[14rem] py-1.5`}
          >
            {workspaces.map((workspace) => (
              <option key={workspace.id} value={workspace.id}>
                {workspace.name} ({workspace.roleLabel})
              </option>
            ))}
          </select>
          <button type="submit" className={`${buttonClass.secondary} py-1.5`} disabled={pending}>
            Switch
          </button>
        </form>
      ) : null}
      <Link href="/workspaces/new" className="text-sm font-medium text-indigo-700 underline hover:text-indigo-500">
        New workspace
      </Link>
      {state && !state.ok ? (
        <p role="alert" className="text-sm text-red-700">
          {state.error}
        </p>
      ) : null}
    </div>
  );
}
