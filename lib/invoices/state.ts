import type { ErrorCode } from '../errors';
import type { EventType } from '../events/types';

/**
 * The invoice state machine. Stored states are pending, processing, paid and cancelled; `expired` is derived:
 * a pending invoice whose expires_at has passed reads as expired everywhere and accepts no API transition.
 *
 *   pending ──cancel────▶ cancelled
 *   pending ──pay───────▶ paid         (test invoices: only through the payment simulator)
 *   pending ──time──────▶ expired
 *   pending ──detect────▶ processing   (live: a matching transfer included on chain before expires_at)
 *   processing ─confirm─▶ paid         (its receipt re-read at N confirmations: same block, success)
 *   processing ─revert──▶ pending      (its block reorganised away; reads as expired when past expires_at)
 *   expired + a match confirmed inside the monitoring window → stays expired, payment_exception "paid_late"
 *
 * `processing` never expires and cannot be cancelled: money is in flight.
 */
export const INVOICE_STATUSES = ['pending', 'processing', 'paid', 'cancelled', 'expired'] as const;
export type InvoiceStatus = (typeof INVOICE_STATUSES)[number];
export type StoredInvoiceStatus = Exclude<InvoiceStatus, 'expired'>;

export const TRANSITIONS = {
  cancel: { from: 'pending', to: 'cancelled', conflict: 'invoice_not_cancellable', event: 'invoice.cancelled' },
  pay: { from: 'pending', to: 'paid', conflict: 'invoice_not_payable', event: 'invoice.paid' },
} as const satisfies Record<string, { from: StoredInvoiceStatus; to: StoredInvoiceStatus; conflict: ErrorCode; event: EventType }>;

export type Transition = keyof typeof TRANSITIONS;

/** The watcher's transitions (lib/chain/settle.ts); they are not reachable through the API. */
export const CHAIN_TRANSITIONS = {
  detect: { from: 'pending', to: 'processing' },
  confirm: { from: 'processing', to: 'paid' },
  revert: { from: 'processing', to: 'pending' },
} as const satisfies Record<string, { from: StoredInvoiceStatus; to: StoredInvoiceStatus }>;

/** Payment exceptions (docs/settlement.md): set beside the status, the merchant decides. */
export const PAYMENT_EXCEPTIONS = ['paid_late', 'underpaid', 'overpaid'] as const;
export type PaymentException = (typeof PAYMENT_EXCEPTIONS)[number];

export function effectiveStatus(stored: StoredInvoiceStatus, expiresAt: Date, now: Date): InvoiceStatus {
  return stored === 'pending' && expiresAt.getTime() <= now.getTime() ? 'expired' : stored;
}

export function conflictMessage(transition: Transition, status: InvoiceStatus): string {
  const verb = transition === 'cancel' ? 'cancelled' : 'paid';
  const why = status === 'processing' ? ' (a payment is on chain awaiting confirmations)' : '';
  return `Only pending invoices can be ${verb}; this invoice is ${status}${why}`;
}
