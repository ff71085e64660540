'use client';

import { signOut } from 'next-auth/react';
import { useActionState } from 'react';
import { buttonClass, Notice, TextField } from '@/components/ui';
import { useCreateAccount } from '../../use-create-account';
import { acceptInvitationAction, signUpFromInvitation } from './actions';

/** Signed in with the invited email: one button joins. */
export function AcceptForm({ token, workspaceName }: { token: string; workspaceName: string }) {
  const [state, action, pending] = useActionState(acceptInvitationAction, null);
  return (
    <form action={action} className="mt-6 space-y-4">
      {state && !state.ok ? <Notice tone="error">{state.error}</Notice> : null}
      <input type="hidden" name="token" value={token} />
      <button type="submit" className={`${buttonClass.primary} w-full`} disabled={pending}>
        {pending ? 'Joining…' : `Join ${workspaceName}`}
      </button>
    </form>
  );
}

/** No account with the invited email yet: choose a password; the account and the membership are made together. */
export function InviteSignUpForm({ token, email }: { token: string; email: string }) {
  const { onSubmit, error, fieldErrors, pending } = useCreateAccount({
    create: signUpFromInvitation,
    signInFailed: () => 'Your account was created, but signing in failed. Sign in with your email and password.',
  });

  return (
    <form onSubmit={onSubmit} className="mt-6 space-y-4" noValidate>
      {error ? <Notice tone="error">{error}</Notice> : null}
      <input type="hidden" name="token" value={token} />
      <div>
        <p className="text-sm font-medium">Email</p>
        <p className="mt-1 break-all text-sm" data-testid="invited-email">
          {email}
        </p>
      </div>
      <TextField
        name="password"
        label="Choose a password"
        type="password"
        autoComplete="new-password"
        required
        minLength={8}
        maxLength={128}
        hint="8 to 128 characters; common or easily guessed passwords are refused."
        error={fieldErrors.password}
      />
      <button type="submit" className={`${buttonClass.primary} w-full`} disabled={pending}>
        {pending ? 'Creating your account…' : 'Create account and join'}
      </button>
    </form>
  );
}

export function SignOutAndReturn({ returnTo }: { returnTo: string }) {
  return (
    <button
      type="button"
      className={`${buttonClass.secondary} w-full`}
      onClick={() => void signOut({ callbackUrl: `/signin?callbackUrl=${encodeURIComponent(returnTo)}` })}
    >
      Sign out, then sign in with the invited email
    </button>
  );
}
