import type { Invoice } from '../generated/prisma/client';
import type { Currency, Network } from './currencies';
import type { InvoiceResource } from './schemas';
import { effectiveStatus } from './state';

export type InvoiceRow = Invoice;

/** Decimal → plain decimal string without exponent or trailing fractional zeros ("10.50" → "10.5"). */
export function formatAmount(value: { toFixed(): string }): string {
  const fixed = value.toFixed();
  return fixed.includes('.') ? fixed.replace(/\.?0+$/, '') : fixed;
}

function iso(value: Date | null): string | null {
  return value ? value.toISOString() : null;
}

/** The API representation of an invoice, with the status it has at `now`. */
export function toInvoiceResource(row: InvoiceRow, now: Date): InvoiceResource {
  return {
    id: row.id,
    object: 'invoice',
    environment: row.environment,
    status: effectiveStatus(row.status, row.expiresAt, now),
    amount: formatAmount(row.amount),
    currency: row.currency as Currency,
    network: row.network as Network,
    pay_address: row.payAddress,
    description: row.description,
    metadata: (row.metadata ?? {}) as Record<string, string>,
    order_id: row.orderId,
    created_at: row.createdAt.toISOString(),
    expires_at: row.expiresAt.toISOString(),
    paid_at: iso(row.paidAt),
    cancelled_at: iso(row.cancelledAt),
    payment:
      row.status === 'paid' && row.paymentTxHash
        ? {
            tx_hash: row.paymentTxHash,
            amount: formatAmount(row.paymentAmount ?? row.amount),
            simulated: row.paymentSimulated ?? false,
          }
        : null,
  };
}
