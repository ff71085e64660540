'use client';

import { signIn } from 'next-auth/react';
import { useRouter } from 'next/navigation';
import { useState, type FormEvent } from 'react';
import { buttonClass, Notice, TextField } from '@/components/ui';

const INVALID = 'Invalid email or password';
const THROTTLED = 'Too many failed sign-in attempts. Wait a few minutes and try again.';
const CODE_INVALID =
  'That code is not correct, or was already used. Enter the current code from your app, or an unused recovery code.';

/**
 * Email and password; with two-factor sign-in on, the server answers "code_required" after a right password and
 * the form shows a code field, keeping what was typed (the password is checked again with the code).
 */
/** `next`: where to go once signed in (an invitation link), a path of this site; else the overview. */
export function SignInForm({ github, next = '/' }: { github: boolean; next?: string }) {
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const [askCode, setAskCode] = useState(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setPending(true);
    setError(null);
    const form = new FormData(event.currentTarget);
    const result = await signIn('credentials', {
      redirect: false,
      email: String(form.get('email') ?? ''),
      password: String(form.get('password') ?? ''),
      code: String(form.get('code') ?? ''),
    });
    setPending(false);
    if (result?.error === 'code_required') {
      setAskCode(true);
      return;
    }
    if (!result || result.error || !result.ok) {
      setError(result?.error === 'throttled' ? THROTTLED : result?.error === 'code_invalid' ? CODE_INVALID : INVALID);
      return;
    }
    router.replace(next);
    router.refresh();
  }

  return (
    <form onSubmit={onSubmit} className="mt-6 space-y-4" noValidate>
      {error ? <Notice tone="error">{error}</Notice> : null}
      <TextField name="email" label="Email" type="email" autoComplete="email" required />
      <TextField name="password" label="Password" type="password" autoComplete="current-password" required />
      {askCode ? (
        <>
          <Notice tone="info">Two-factor sign-in is on for this account.</Notice>
          <TextField
            // Appears after the password was accepted: the next thing to type (focus moves there, announced by its label).
            autoFocus
            name="code"
            label="Authentication code"
            autoComplete="one-time-code"
            spellCheck={false}
            required
            hint="The 6-digit code from your authenticator app, or one of your recovery codes."
          />
        </>
      ) : null}
      <button type="submit" className={`${buttonClass.primary} w-full`} disabled={pending}>
        {pending ? 'Signing in…' : 'Sign in'}
      </button>
      {github ? (
        <button
          type="button"
          className={`${buttonClass.secondary} w-full`}
          onClick={() => void signIn('github', { callbackUrl: next })}
        >
          Sign in with GitHub
        </button>
      ) : null}
    </form>
  );
}
