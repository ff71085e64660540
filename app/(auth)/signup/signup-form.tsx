'use client';

import { signIn } from 'next-auth/react';
import { useRouter } from 'next/navigation';
import { useState, type FormEvent } from 'react';
import { buttonClass, Notice, TextField } from '@/components/ui';
import { signUp } from './actions';

export function SignUpForm() {
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const [pending, setPending] = useState(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setPending(true);
    setError(null);
    setFieldErrors({});
    const form = new FormData(event.currentTarget);
    const result = await signUp(form);
    if (!result.ok) {
      setError(result.error);
      setFieldErrors(result.fieldErrors ?? {});
      setPending(false);
      return;
    }
    // Signed in with the password the user just typed (it never comes back from the server).
    const signedIn = await signIn('credentials', {
      redirect: false,
      email: String(form.get('email') ?? ''),
      password: String(form.get('password') ?? ''),
    });
    if (!signedIn?.ok || signedIn.error) {
      // Sign-up never says whether the email was taken: if it was, only that account's password signs in.
      setError(
        signedIn?.error === 'throttled'
          ? 'Too many failed sign-in attempts. Wait a few minutes and try again.'
          : 'Could not sign you in. If this email already has an account, sign in with its password.',
      );
      setPending(false);
      return;
    }
    router.replace('/');
    router.refresh();
  }

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
