import { paymentUri } from '../chain/payment-uri';
import { testPayAddress } from '../wallets/address';
import { hostedUrl } from './hosted-url';
import type { Currency, Network } from './currencies';
import type { InvoiceResource, PaymentResource } from './schemas';
import { effectiveStatus, type PaymentException, type StoredInvoiceStatus } from './state';
import { PRICE_DECIMALS, type PriceCurrency } from '../rates/feeds';

type DecimalLike = string | { toFixed(): string };

/** A stored payment (an on-chain transfer), as Prisma returns it or as lib/invoices/queries.ts maps raw rows. */
export interface PaymentRecord {
  id: string;
  txHash: string;
  /** -1 for a native transfer (no log). */
  logIndex: number;
  network: string;
  currency: string;
  amount: DecimalLike;
  fromAddress: string;
  /** Null while only in the mempool. */
  blockNumber: bigint | null;
  status: 'pending' | 'confirmed' | 'reverted';
  confirmations: number;
  detectedAt: Date;
  confirmedAt: Date | null;
}

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
  payAmount: DecimalLike;
  redirectUrl: string | null;
  amountReceived: DecimalLike;
  paymentException: string | null;
  payments: PaymentRecord[];
  /** The hosted page's capability token; null only in event snapshots older than the hosted page. */
  payToken: string | null;
  /** Priced in fiat (docs/rates.md): all null for invoices created with amount, and in older snapshots. */
  priceAmount: DecimalLike | null;
  priceCurrency: string | null;
  rate: string | null;
  rateSource: string | null;
  rateAt: Date | null;
}

/** A fiat price with its currency's minor units: "49" → "49.00", "49.5" → "49.50". */
export function formatPrice(value: DecimalLike, currency: string): string {
  const plain = formatAmount(value);
  const decimals = PRICE_DECIMALS[currency as PriceCurrency] ?? 2;
  const [whole, fraction = ''] = plain.split('.');
  return fraction.length >= decimals ? plain : `${whole}.${fraction.padEnd(decimals, '0')}`;
}

/** Decimal → plain decimal string without exponent or trailing fractional zeros ("10.50" → "10.5"). */
export function formatAmount(value: DecimalLike): string {
  const fixed = typeof value === 'string' ? value : value.toFixed();
  return fixed.includes('.') ? fixed.replace(/\.?0+$/, '') : fixed;
}

function iso(value: Date | null): string | null {
  return value ? value.toISOString() : null;
}

export function toPaymentResource(row: PaymentRecord): PaymentResource {
  return {
    id: row.id,
    tx_hash: row.txHash,
    log_index: row.logIndex < 0 ? null : row.logIndex,
    network: row.network as Network,
    currency: row.currency as Currency,
    amount: formatAmount(row.amount),
    from: row.fromAddress,
    block_number: row.blockNumber === null ? null : Number(row.blockNumber),
    confirmations: row.confirmations,
    status: row.status,
    detected_at: row.detectedAt.toISOString(),
    confirmed_at: iso(row.confirmedAt),
  };
}

/** The API representation of an invoice, with the status it has at `now`. */
export function toInvoiceResource(row: InvoiceRecord, now: Date): InvoiceResource {
  const payAmount = formatAmount(row.payAmount);
  // Read-time rule for invoices stored before docs/api.md said so: a test invoice shows the test address only.
  const payAddress = row.environment === 'test' ? testPayAddress(row.network as Network) : row.payAddress;
  return {
    id: row.id,
    object: 'invoice',
    environment: row.environment,
    status: effectiveStatus(row.status, row.expiresAt, now),
    amount: formatAmount(row.amount),
    currency: row.currency as Currency,
    network: row.network as Network,
    pay_address: payAddress,
    pay_amount: payAmount,
    payment_uri: paymentUri({
      currency: row.currency as Currency,
      network: row.network as Network,
      address: payAddress,
      payAmount,
    }),
    // A simulated payment (test invoices) is the whole pay_amount; on-chain ones are summed into the column.
    amount_received: row.status === 'paid' && row.paymentSimulated ? payAmount : formatAmount(row.amountReceived),
    payment_exception: row.paymentException as PaymentException | null,
    description: row.description,
    metadata: (row.metadata ?? {}) as Record<string, string>,
    order_id: row.orderId,
    redirect_url: row.redirectUrl,
    hosted_url: row.payToken === null ? null : hostedUrl(row.payToken),
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
    payments: row.payments.map(toPaymentResource),
    price_amount:
      row.priceAmount !== null && row.priceCurrency !== null ? formatPrice(row.priceAmount, row.priceCurrency) : null,
    price_currency: row.priceCurrency as PriceCurrency | null,
    rate: row.rate,
    rate_source: row.rateSource,
    rate_at: iso(row.rateAt),
  };
}
