'use client';

import { useRouter } from 'next/navigation';
import { useTransition } from 'react';
import { ConfirmAction } from '@/components/confirm-action';
import { useAnnounce } from '@/components/status';
import { buttonClass } from '@/components/ui';
import { cancelPortalInvoice, simulatePayment } from './actions';

/** Actions on a pending invoice: cancel (asks first; test or live), and simulate payment (test only). */
export function InvoiceActions({ invoiceId, environment }: { invoiceId: string; environment: 'test' | 'live' }) {
  return (
    <div className="flex flex-wrap gap-2">
      {environment === 'test' ? <SimulatePaymentButton invoiceId={invoiceId} /> : null}
      <ConfirmAction
        action={cancelPortalInvoice}
        fields={{ invoiceId, environment }}
        trigger="Cancel invoice"
        title="Cancel this invoice?"
        confirm="Cancel invoice"
        success={(data) => `Invoice ${data.id} is ${data.status}.`}
      >
        {environment === 'live'
          ? 'The payer can no longer pay it, and this cannot be undone. Funds already sent to your wallet stay there: refund them yourself.'
          : 'The test invoice can no longer be paid. This cannot be undone.'}
      </ConfirmAction>
    </div>
  );
}

function SimulatePaymentButton({ invoiceId }: { invoiceId: string }) {
  const [pending, startTransition] = useTransition();
  const announce = useAnnounce();
  const router = useRouter();
  // Announced from the transition: a success unmounts this button (the invoice is no longer pending).
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        const formData = new FormData(event.currentTarget);
        startTransition(async () => {
          const result = await simulatePayment(null, formData);
          announce(
            result.ok ? 'success' : 'error',
            result.ok ? `Payment simulated: invoice ${result.data.id} is ${result.data.status}.` : result.error,
          );
          router.refresh();
        });
      }}
    >
      <input type="hidden" name="invoiceId" value={invoiceId} />
      <button type="submit" className={buttonClass.primary} disabled={pending}>
        {pending ? 'Simulating…' : 'Simulate payment'}
      </button>
    </form>
  );
}
