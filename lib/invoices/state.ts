import type { ErrorCode } from '../errors';
import type { EventType } from '../events/types';

/**
 * The invoice state machine. Stored states are pending, paid and cancelled; `expired` is derived:
 * a pending invoice whose expires_at has passed reads as expired everywhere and accepts no transition.
 *
 *   pending ──cancel──▶ cancelled
 *   pending ──pay─────▶ paid        (test invoices: only through the payment simulator)
 *   pending ──time────▶ expired
 */
export const INVOICE_STATUSES = ['pending', 'paid', 'cancelled', 'expired'] as const;
export type InvoiceStatus = (typeof INVOICE_STATUSES)[number];
export type StoredInvoiceStatus = Exclude<InvoiceStatus, 'expired'>;

export const TRANSITIONS = {
  cancel: { from: 'pending', to: 'cancelled', conflict: 'invoice_not_cancellable', event: 'invoice.cancelled' },
  pay: { from: 'pending', to: 'paid', conflict: 'invoice_not_payable', event: 'invoice.paid' },
} as const satisfies Record<string, { from: StoredInvoiceStatus; to: StoredInvoiceStatus; conflict: ErrorCode; event: EventType }>;

export type Transition = keyof typeof TRANSITIONS;

export function effectiveStatus(stored: StoredInvoiceStatus, expiresAt: Date, now: Date): InvoiceStatus {
  return stored === 'pending' && expiresAt.getTime() <= now.getTime() ? 'expired' : stored;
}

export function conflictMessage(transition: Transition, status: InvoiceStatus): string {
  const verb = transition === 'cancel' ? 'cancelled' : 'paid';
  return `Only pending invoices can be ${verb}; this invoice is ${status}`;
}
