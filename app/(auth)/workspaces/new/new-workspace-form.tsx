'use client';

import { useActionState } from 'react';
import { buttonClass, Notice, TextField } from '@/components/ui';
import { createWorkspaceAction } from '../actions';

export function NewWorkspaceForm() {
  const [state, action, pending] = useActionState(createWorkspaceAction, null);
  return (
    <form action={action} className="mt-6 space-y-4">
      {state && !state.ok ? <Notice tone="error">{state.error}</Notice> : null}
      <TextField
        name="name"
        label="Workspace name"
        type="text"
        required
        maxLength={80}
        error={state && !state.ok ? state.fieldErrors?.name : undefined}
      />
      <button type="submit" className={`${buttonClass.primary} w-full`} disabled={pending}>
        {pending ? 'Creating…' : 'Create workspace'}
      </button>
    </form>
  );
}
