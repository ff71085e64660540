'use client';

import { useActionState, useState } from 'react';
import { buttonClass } from '@/components/ui';
import { revokeKey } from './actions';

/** Revoke with an explicit confirmation step. */
export function RevokeKeyButton({ keyId, label }: { keyId: number; label: string }) {
  const [state, action, pending] = useActionState(revokeKey, null);
  const [confirming, setConfirming] = useState(false);
  if (!confirming) {
    return (
      <div>
        <button type="button" className={buttonClass.secondary} onClick={() => setConfirming(true)} aria-label={`Revoke key ${label}`}>
          Revoke
        </button>
        {state && !state.ok ? (
          <p role="alert" className="mt-1 text-sm text-red-700">
            {state.error}
          </p>
        ) : null}
      </div>
    );
  }
  return (
    <form action={action} onSubmit={() => setConfirming(false)} className="flex flex-wrap items-center gap-2" aria-label={`Confirm revoking ${label}`}>
      <input type="hidden" name="keyId" value={keyId} />
      <span className="text-sm">Revoke “{label}”? Requests with it will fail at once.</span>
      <button type="submit" className={buttonClass.danger} disabled={pending}>
        Confirm revoke
      </button>
      <button type="button" className={buttonClass.secondary} onClick={() => setConfirming(false)}>
        Cancel
      </button>
    </form>
  );
}
