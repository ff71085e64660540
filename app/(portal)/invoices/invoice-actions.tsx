'use client';

import { useRouter } from 'next/navigation';
import { useActionState, useEffect } from 'react';
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
  const [state, action, pending] = useActionState(simulatePayment, null);
  const announce = useAnnounce();
  const router = useRouter();
  useEffect(() => {
    if (!state) return;
    announce(state.ok ? 'success' : 'error', state.ok ? `Payment simulated: invoice ${state.data.id} is ${state.data.status}.` : state.error);
    router.refresh();
  }, [state, announce, router]);
  return (
    <form action={action}>
      <input type="hidden" name="invoiceId" value={invoiceId} />
      <button type="submit" className={buttonClass.primary} disabled={pending}>
        {pending ? 'Simulating…' : 'Simulate payment'}
      </button>
    </form>
  );
}
