import { testPayAddress } from '../wallets/address';
import type { Currency, Network } from './currencies';
import type { InvoiceResource } from './schemas';
import { effectiveStatus, type StoredInvoiceStatus } from './state';

type DecimalLike = string | { toFixed(): string };

/** The fields of a stored invoice, as Prisma returns them or as lib/invoices/queries.ts maps raw rows. */
export interface InvoiceRecord {
  id: string;
  environment: 'test' | 'live';
  status: StoredInvoiceStatus;
  amount: DecimalLike;
  currency: string;
  network: string;
  payAddress: string;
  description: string | null;
  metadata: unknown;
  orderId: string | null;
  createdAt: Date;
  expiresAt: Date;
  paidAt: Date | null;
  cancelledAt: Date | null;
  paymentTxHash: string | null;
  paymentAmount: DecimalLike | null;
  paymentSimulated: boolean | null;
}

/** Decimal → plain decimal string without exponent or trailing fractional zeros ("10.50" → "10.5"). */
export function formatAmount(value: DecimalLike): string {
  const fixed = typeof value === 'string' ? value : value.toFixed();
  return fixed.includes('.') ? fixed.replace(/\.?0+$/, '') : fixed;
}

function iso(value: Date | null): string | null {
  return value ? value.toISOString() : null;
}

/** The API representation of an invoice, with the status it has at `now`. */
export function toInvoiceResource(row: InvoiceRecord, now: Date): InvoiceResource {
  return {
    id: row.id,
    object: 'invoice',
    environment: row.environment,
    status: effectiveStatus(row.status, row.expiresAt, now),
    amount: formatAmount(row.amount),
    currency: row.currency as Currency,
    network: row.network as Network,
    // Read-time rule for invoices stored before SPEC §3.4 said so: a test invoice shows the test address only.
    pay_address: row.environment === 'test' ? testPayAddress(row.network as Network) : row.payAddress,
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
