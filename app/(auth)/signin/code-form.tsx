'use client';

import { signOut } from 'next-auth/react';
import { useRouter } from 'next/navigation';
import { useActionState, useEffect } from 'react';
import { buttonClass, Notice, TextField } from '@/components/ui';
import { completeSignInCode, type CodeResult } from './actions';

/** A GitHub sign-in of an account with two-factor on: the code, before the portal opens. */
export function SignInCodeForm() {
  const router = useRouter();
  const [state, action, pending] = useActionState<CodeResult | null, FormData>(completeSignInCode, null);
  useEffect(() => {
    if (state?.ok) {
      router.replace('/');
      router.refresh();
    }
  }, [state, router]);
  return (
    <form action={action} className="mt-6 space-y-4" noValidate>
      {state && !state.ok ? <Notice tone="error">{state.error}</Notice> : null}
      <Notice tone="info">You signed in with GitHub. Two-factor sign-in is on for this account.</Notice>
      <TextField
        autoFocus
        name="code"
        label="Authentication code"
        autoComplete="one-time-code"
        spellCheck={false}
        required
        hint="The 6-digit code from your authenticator app, or one of your recovery codes."
      />
      <button type="submit" className={`${buttonClass.primary} w-full`} disabled={pending}>
        {pending ? 'Checking…' : 'Continue'}
      </button>
      <button
        type="button"
        className={`${buttonClass.secondary} w-full`}
        onClick={() => void signOut({ callbackUrl: '/signin' })}
      >
        Cancel
      </button>
    </form>
  );
}
