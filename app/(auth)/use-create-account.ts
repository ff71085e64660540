'use client';

import { signIn } from 'next-auth/react';
import { useRouter } from 'next/navigation';
import { useState, type FormEvent } from 'react';

type CreateResult = { ok: true; email?: string } | { ok: false; error: string; fieldErrors?: Record<string, string> };

/**
 * The submit of a form that creates an account: the server action, then a sign-in with the password the user
 * just typed (it never comes back from the server), then the portal. The sign-up and the invitation forms
 * differ only in their action and in what they say when the sign-in fails.
 */
export function useCreateAccount(options: {
  create: (form: FormData) => Promise<CreateResult>;
  signInFailed: (error: string | null | undefined) => string;
}) {
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
    const result = await options.create(form);
    if (!result.ok) {
      setError(result.error);
      setFieldErrors(result.fieldErrors ?? {});
      setPending(false);
      return;
    }
    const signedIn = await signIn('credentials', {
      redirect: false,
      email: result.email ?? String(form.get('email') ?? ''),
      password: String(form.get('password') ?? ''),
    });
    if (!signedIn?.ok || signedIn.error) {
      setError(options.signInFailed(signedIn?.error));
      setPending(false);
      return;
    }
    router.replace('/');
    router.refresh();
  }

  return { onSubmit, error, fieldErrors, pending };
}
