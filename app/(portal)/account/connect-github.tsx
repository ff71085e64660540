'use client';

import { signIn } from 'next-auth/react';
import { useState } from 'react';
import { buttonClass, Notice } from '@/components/ui';
import { connectGitHub } from './actions';

export function ConnectGitHub() {
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  async function onClick() {
    setPending(true);
    setError(null);
    const result = await connectGitHub(null, new FormData());
    if (!result.ok || !result.data.started) {
      setError(result.ok ? 'GitHub sign-in is not configured.' : result.error);
      setPending(false);
      return;
    }
    await signIn('github', { callbackUrl: '/account' });
  }
  return (
    <div className="space-y-2">
      {error ? <Notice tone="error">{error}</Notice> : null}
      <button type="button" className={buttonClass.secondary} onClick={() => void onClick()} disabled={pending}>
        {pending ? 'Opening GitHub…' : 'Connect GitHub'}
      </button>
    </div>
  );
}
