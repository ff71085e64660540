'use client';

import { signIn } from 'next-auth/react';
import { useRouter } from 'next/navigation';
import { useState, type FormEvent } from 'react';
import { buttonClass, Notice, TextField } from '@/components/ui';

const INVALID = 'Invalid email or password';
const THROTTLED = 'Too many failed sign-in attempts. Wait a few minutes and try again.';

export function SignInForm({ github }: { github: boolean }) {
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setPending(true);
    setError(null);
    const form = new FormData(event.currentTarget);
    const result = await signIn('credentials', {
      redirect: false,
      email: String(form.get('email') ?? ''),
      password: String(form.get('password') ?? ''),
    });
    if (!result || result.error || !result.ok) {
      setError(result?.error === 'throttled' ? THROTTLED : INVALID);
      setPending(false);
      return;
    }
    router.replace('/');
    router.refresh();
  }

  return (
    <form onSubmit={onSubmit} className="mt-6 space-y-4" noValidate>
      {error ? <Notice tone="error">{error}</Notice> : null}
      <TextField name="email" label="Email" type="email" autoComplete="email" required />
      <TextField name="password" label="Password" type="password" autoComplete="current-password" required />
      <button type="submit" className={`${buttonClass.primary} w-full`} disabled={pending}>
        {pending ? 'Signing in…' : 'Sign in'}
      </button>
      {github ? (
        <button type="button" className={`${buttonClass.secondary} w-full`} onClick={() => void signIn('github', { callbackUrl: '/' })}>
          Sign in with GitHub
        </button>
      ) : null}
    </form>
  );
}
