'use client';

import { useActionState } from 'react';
import { buttonClass } from '@/components/ui';
import { resend } from '../actions';

/** "Resend": one attempt now, with the same webhook-id (the event id). */
export function ResendButton({
  endpointId,
  deliveryId,
  eventType,
}: {
  endpointId: string;
  deliveryId: string;
  eventType: string;
}) {
  const [state, action, pending] = useActionState(resend, null);
  return (
    <form action={action}>
      <input type="hidden" name="endpointId" value={endpointId} />
      <input type="hidden" name="deliveryId" value={deliveryId} />
      <button
        type="submit"
        className={buttonClass.secondary}
        disabled={pending}
        aria-label={`Resend ${eventType} (${deliveryId})`}
      >
        {pending ? 'Queuing…' : 'Resend'}
      </button>
      {state?.ok ? (
        <p role="status" className="mt-1 text-xs text-slate-600">
          Queued
        </p>
      ) : null}
      {state && !state.ok ? (
        <p role="alert" className="mt-1 text-xs text-red-700">
          {state.error}
        </p>
      ) : null}
    </form>
  );
}
