'use client';

import { buttonClass, Notice, TextField } from '@/components/ui';
import { useCreateAccount } from '../use-create-account';
import { signUp } from './actions';

export function SignUpForm() {
  const { onSubmit, error, fieldErrors, pending } = useCreateAccount({
    create: signUp,
    // Sign-up never says whether the email was taken: if it was, only that account's password signs in.
    signInFailed: (signInError) =>
      signInError === 'throttled'
        ? 'Too many failed sign-in attempts. Wait a few minutes and try again.'
        : 'Could not sign you in. If this email already has an account, sign in with its password.',
  });

  return (
    <form onSubmit={onSubmit} className="mt-6 space-y-4" noValidate>
      {error ? <Notice tone="error">{error}</Notice> : null}
      <TextField name="email" label="Email" type="email" autoComplete="email" required error={fieldErrors.email} />
      <TextField
        name="password"
        label="Password"
        type="password"
        autoComplete="new-password"
        required
        minLength={8}
        maxLength={128}
        hint="8 to 128 characters; common or easily guessed passwords are refused. A few unrelated words work well."
        error={fieldErrors.password}
      />
      <TextField
        name="workspaceName"
        label={
          <>
            Workspace name <span className="font-normal text-slate-500">(optional)</span>
          </>
        }
        type="text"
        maxLength={80}
        error={fieldErrors.workspaceName}
      />
      <button type="submit" className={`${buttonClass.primary} w-full`} disabled={pending}>
        {pending ? 'Creating account…' : 'Create account'}
      </button>
    </form>
  );
}
