'use client';

import { useRouter } from 'next/navigation';
import { useEffect, useState, type ReactNode } from 'react';
import { buttonClass } from '@/components/ui';
import type { HostedStatus } from '@/lib/invoices/hosted';

/** How often the page asks /pay/<token>/status while the invoice can still change. */
const POLL_MS = 2000;

function remaining(expiresAt: string, now: number): string {
  const seconds = Math.max(0, Math.floor((Date.parse(expiresAt) - now) / 1000));
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  const mmss = `${String(m).padStart(2, '0')}:${String(s).padStart(2, '0')}`;
  return h > 0 ? `${h}:${mmss}` : mmss;
}

function headline(state: HostedStatus): string {
  switch (state.status) {
    case 'pending':
      return 'Awaiting payment';
    case 'processing':
      return state.confirmations_required === null
        ? 'Payment detected, confirming'
        : `Payment detected — ${state.confirmations ?? 0} of ${state.confirmations_required} confirmations`;
    case 'paid':
      return 'Paid — thank you';
    case 'expired':
      return 'This invoice has expired';
    case 'cancelled':
      return 'This invoice was cancelled';
  }
}

/**
 * The live part of the hosted page: the status (polled, announced to screen readers), the countdown, and the
 * payment details (children) only while the invoice can be paid — expired, cancelled and paid show none to copy.
 */
export function PayStatus({
  token,
  test,
  initial,
  children,
}: {
  token: string;
  test: boolean;
  initial: HostedStatus;
  children: ReactNode;
}) {
  const [state, setState] = useState(initial);
  const [now, setNow] = useState(() => Date.now());
  const [simulating, setSimulating] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const open = state.status === 'pending' || state.status === 'processing';
  const router = useRouter();
  const paidHere = initial.status !== 'paid' && state.status === 'paid';

  // Paid while the page was open: render the page again on the server, which adds the receipt.
  useEffect(() => {
    if (paidHere) router.refresh();
  }, [paidHere, router]);

  useEffect(() => {
    if (!open) return;
    const tick = setInterval(() => setNow(Date.now()), 1000);
    const poll = setInterval(async () => {
      try {
        const response = await fetch(`/pay/${token}/status`, { cache: 'no-store' });
        if (response.ok) setState((await response.json()) as HostedStatus);
      } catch {
        // Offline for a moment: the next poll tries again.
      }
    }, POLL_MS);
    return () => {
      clearInterval(tick);
      clearInterval(poll);
    };
  }, [open, token]);

  // A pending invoice whose time ran out reads as expired without waiting for the next poll.
  const shown: HostedStatus =
    state.status === 'pending' && Date.parse(state.expires_at) <= now ? { ...state, status: 'expired' } : state;

  async function simulate() {
    setSimulating(true);
    setError(null);
    try {
      const response = await fetch(`/pay/${token}/simulate`, { method: 'POST' });
      if (response.ok) setState((await response.json()) as HostedStatus);
      else setError('The payment could not be simulated: the invoice is no longer payable.');
    } finally {
      setSimulating(false);
    }
  }

  return (
    <>
      <div
        className="mt-5 rounded-md border border-slate-200 px-3 py-3"
        data-testid="status"
        data-status={shown.status}
      >
        <p className="font-semibold" role="status" aria-live="polite">
          {headline(shown)}
        </p>
        {shown.amount_due !== null && (shown.status === 'pending' || shown.status === 'processing') ? (
          <p className="mt-1 text-sm text-slate-800" data-testid="amount-due">
            Received {shown.amount_received} {shown.currency} so far: {shown.amount_due} {shown.currency} still due.
          </p>
        ) : null}
        {shown.status === 'pending' ? (
          <p className="mt-1 text-sm text-slate-700">
            Expires in{' '}
            <time dateTime={shown.expires_at} data-testid="countdown" suppressHydrationWarning>
              {remaining(shown.expires_at, now)}
            </time>
          </p>
        ) : null}
        {shown.status === 'paid' && shown.redirect_url ? (
          <a href={shown.redirect_url} className={`${buttonClass.primary} mt-3 print:hidden`} data-testid="return-link">
            Return to merchant
          </a>
        ) : null}
      </div>
      {shown.status === 'pending' || shown.status === 'processing' ? children : null}
      {test && shown.status === 'pending' ? (
        <div className="mt-5">
          <button type="button" className={buttonClass.secondary} onClick={simulate} disabled={simulating}>
            {simulating ? 'Simulating…' : 'Simulate payment'}
          </button>
          {error ? (
            <p className="mt-2 text-sm text-red-700" role="alert">
              {error}
            </p>
          ) : null}
        </div>
      ) : null}
    </>
  );
}
