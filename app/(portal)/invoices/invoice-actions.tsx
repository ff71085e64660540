'use client';

import { useActionState } from 'react';
import { buttonClass, Notice } from '@/components/ui';
import { cancelTestInvoice, simulatePayment } from './actions';

/** "Simulate payment" and "Cancel" for a test invoice. */
export function InvoiceActions({ invoiceId }: { invoiceId: string }) {
  const [payState, payAction, paying] = useActionState(simulatePayment, null);
  const [cancelState, cancelAction, cancelling] = useActionState(cancelTestInvoice, null);
  const error = (payState && !payState.ok ? payState.error : null) ?? (cancelState && !cancelState.ok ? cancelState.error : null);
  return (
    <div className="space-y-3">
      {error ? <Notice tone="error">{error}</Notice> : null}
      {payState?.ok ? <Notice tone="success">Payment simulated: the invoice is {payState.data.status}.</Notice> : null}
      {cancelState?.ok ? <Notice tone="success">The invoice is {cancelState.data.status}.</Notice> : null}
      <div className="flex flex-wrap gap-2">
        <form action={payAction}>
          <input type="hidden" name="invoiceId" value={invoiceId} />
          <button type="submit" className={buttonClass.primary} disabled={paying || cancelling}>
            Simulate payment
          </button>
        </form>
        <form action={cancelAction}>
          <input type="hidden" name="invoiceId" value={invoiceId} />
          <button type="submit" className={buttonClass.secondary} disabled={paying || cancelling}>
            Cancel invoice
          </button>
        </form>
      </div>
    </div>
  );
}
