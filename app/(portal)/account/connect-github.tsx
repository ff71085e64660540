'use client';

import { signIn } from 'next-auth/react';
import { useState } from 'react';
import { useStepUp } from '@/components/step-up';
import { buttonClass, Notice } from '@/components/ui';
import { connectGitHub, disconnectGitHub } from './actions';

/** "Connect GitHub" asks for a step-up first (a linked GitHub account is another way into this account). */
export function ConnectGitHub() {
  const connect = useStepUp(connectGitHub);
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  async function onClick() {
    setPending(true);
    setError(null);
    const result = await connect(null, new FormData());
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

/** "Disconnect GitHub" (step-up); GitHub sign-ins of this account end with it. */
export function DisconnectGitHub() {
  const disconnect = useStepUp(disconnectGitHub);
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  async function onClick() {
    setPending(true);
    setError(null);
    const result = await disconnect(null, new FormData());
    if (!result.ok) setError(result.error);
    setPending(false);
  }
  return (
    <div className="space-y-2">
      {error ? <Notice tone="error">{error}</Notice> : null}
      <button type="button" className={buttonClass.secondary} onClick={() => void onClick()} disabled={pending}>
        {pending ? 'Disconnecting…' : 'Disconnect GitHub'}
      </button>
    </div>
  );
}
