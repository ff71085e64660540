'use client';

import { signIn } from 'next-auth/react';
import { useRouter } from 'next/navigation';
import { useState, type FormEvent } from 'react';
import { buttonClass, FieldError, inputClass, Notice } from '@/components/ui';
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
      router.replace('/signin');
      return;
    }
    router.replace('/');
    router.refresh();
  }

  return (
    <form onSubmit={onSubmit} className="mt-6 space-y-4" noValidate>
      {error ? <Notice tone="error">{error}</Notice> : null}
      <div>
        <label htmlFor="email" className="block text-sm font-medium">
          Email
        </label>
        <input
          id="email"
          name="email"
          type="email"
          autoComplete="email"
          required
          aria-invalid={Boolean(fieldErrors.email)}
          aria-describedby={fieldErrors.email ? 'email-error' : undefined}
          className={`mt-1 ${inputClass}`}
        />
        <FieldError id="email-error" message={fieldErrors.email} />
      </div>
      <div>
        <label htmlFor="password" className="block text-sm font-medium">
          Password
        </label>
        <input
          id="password"
          name="password"
          type="password"
          autoComplete="new-password"
          required
          minLength={8}
          maxLength={128}
          aria-invalid={Boolean(fieldErrors.password)}
          aria-describedby={fieldErrors.password ? 'password-error password-hint' : 'password-hint'}
          className={`mt-1 ${inputClass}`}
        />
        <p id="password-hint" className="mt-1 text-xs text-slate-600">
          8 to 128 characters.
        </p>
        <FieldError id="password-error" message={fieldErrors.password} />
      </div>
      <div>
        <label htmlFor="workspaceName" className="block text-sm font-medium">
          Workspace name <span className="font-normal text-slate-500">(optional)</span>
        </label>
        <input
          id="workspaceName"
          name="workspaceName"
          type="text"
          maxLength={80}
          aria-invalid={Boolean(fieldErrors.workspaceName)}
          className={`mt-1 ${inputClass}`}
        />
        <FieldError id="workspaceName-error" message={fieldErrors.workspaceName} />
      </div>
      <button type="submit" className={`${buttonClass.primary} w-full`} disabled={pending}>
        {pending ? 'Creating account…' : 'Create account'}
      </button>
    </form>
  );
}
