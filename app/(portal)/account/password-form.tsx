'use client';

import { useActionState } from 'react';
import { buttonClass, Notice, TextField } from '@/components/ui';
import { changePasswordAction } from './actions';

/** `needsCode`: two-factor sign-in is on, so the change needs a code as well as the current password. */
export function PasswordForm({ needsCode }: { needsCode: boolean }) {
  const [state, action, pending] = useActionState(changePasswordAction, null);
  const fieldErrors = state && !state.ok ? (state.fieldErrors ?? {}) : {};
  return (
    <form action={action} className="space-y-4" aria-label="Change password">
      {state && !state.ok ? <Notice tone="error">{state.error}</Notice> : null}
      {state?.ok ? (
        <Notice tone="success">
          Password changed.{' '}
          {state.data.endedSessions === 1 ? '1 other session was' : `${state.data.endedSessions} other sessions were`}{' '}
          signed out.
        </Notice>
      ) : null}
      <TextField
        name="currentPassword"
        label="Current password"
        type="password"
        autoComplete="current-password"
        required
        error={fieldErrors.currentPassword}
      />
      {needsCode ? (
        <TextField
          name="code"
          label="Authentication code"
          autoComplete="one-time-code"
          spellCheck={false}
          required
          hint="The 6-digit code from your authenticator app, or a recovery code."
          error={fieldErrors.code}
        />
      ) : null}
      <TextField
        name="newPassword"
        label="New password"
        type="password"
        autoComplete="new-password"
        required
        minLength={8}
        maxLength={128}
        hint="8 to 128 characters; common or easily guessed passwords are refused. Other sessions are signed out."
        error={fieldErrors.newPassword}
      />
      <button type="submit" className={buttonClass.primary} disabled={pending}>
        {pending ? 'Changing…' : 'Change password'}
      </button>
    </form>
  );
}
