'use client';

import { useState } from 'react';
import { buttonClass, Notice } from '@/components/ui';
import { signOutEverywhere } from './actions';

/** Ends every other session of this account (password and GitHub sign-ins); this one stays. */
export function SignOutEverywhere() {
  const [message, setMessage] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);
  const [pending, setPending] = useState(false);
  async function onClick() {
    setPending(true);
    const result = await signOutEverywhere(null, new FormData());
    setMessage(
      result.ok
        ? {
            tone: 'success',
            text: `Signed out everywhere else (${result.data.endedSessions} ${result.data.endedSessions === 1 ? 'session' : 'sessions'} ended).`,
          }
        : { tone: 'error', text: result.error },
    );
    setPending(false);
  }
  return (
    <div className="space-y-2">
      {message ? <Notice tone={message.tone}>{message.text}</Notice> : null}
      <button type="button" className={buttonClass.secondary} onClick={() => void onClick()} disabled={pending}>
        {pending ? 'Signing out…' : 'Sign out everywhere else'}
      </button>
    </div>
  );
}
