'use client';

import { useActionState } from 'react';
import { buttonClass, inputClass, Notice } from '@/components/ui';
import { attachUnmatchedPayment } from './actions';

/** "Attach to invoice": the merchant names the live invoice this payment was meant for. */
export function AttachForm({ paymentId }: { paymentId: string }) {
  const [state, action, pending] = useActionState(attachUnmatchedPayment, null);
  const field = `invoice-${paymentId}`;
  return (
    <form action={action} className="space-y-2">
      <input type="hidden" name="paymentId" value={paymentId} />
      <label htmlFor={field} className="block text-xs font-medium">
        Invoice id
      </label>
      <div className="flex flex-wrap gap-2">
        <input
          id={field}
          name="invoiceId"
          required
          placeholder="inv_…"
          className={`${inputClass} w-64 font-mono text-xs`}
        />
        <button type="submit" className={buttonClass.secondary} disabled={pending}>
          Attach to invoice
        </button>
      </div>
      {state && !state.ok ? <Notice tone="error">{state.error}</Notice> : null}
      {state?.ok ? (
        <Notice tone="success">
          Attached: the invoice is {state.data.status}
          {state.data.paymentException ? ` (${state.data.paymentException})` : ''}.
        </Notice>
      ) : null}
    </form>
  );
}
