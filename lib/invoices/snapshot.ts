import type { KeyEnvironment } from '../keys/api-key-secret';
import type { InvoiceRecord, PaymentRecord } from './serialize';
import type { StoredInvoiceStatus } from './state';

/**
 * An invoice as one named, versioned JSON object: what every invoice statement returns (reads, the reads fused
 * into authentication, create and transitions) and what an invoice event stores as its `snapshot` (so an event
 * shows the invoice as it was, lib/events/serialize.ts). Built in SQL with json_build_object from the columns
 * (unqualified: the list works over any row source that exposes the invoices columns) and mapped by
 * fromSnapshot.
 *
 * Changing the shape: add the field here (SQL and InvoiceSnapshot), bump INVOICE_SNAPSHOT_VERSION, and either
 * convert the stored snapshots in a migration (as 20261125213944_named_invoice_snapshots did for the positional
 * arrays of before) or give fromSnapshot a default for the older version. The payments come from the SQL
 * function invoice_payments_json(id) (same migration), called only for invoices with has_payments (≈ 50 µs a
 * row otherwise, on every page).
 */
export const INVOICE_SNAPSHOT_VERSION = 2;
/** Version 1 (before prices in fiat) has no price fields: read as priced in crypto. */
const READABLE_VERSIONS: ReadonlyArray<number> = [1, INVOICE_SNAPSHOT_VERSION];

/**
 * Every field of a snapshot, in one list: its name and the SQL that reads it from an invoices row. Both SQL forms
 * below are made from it, so a field is added in one place (and in InvoiceSnapshot: the compiler checks the two agree).
 */
const SNAPSHOT_FIELDS = [
  ['id', 'id'],
  ['environment', 'environment'],
  ['status', 'status'],
  ['amount', 'amount::text'],
  ['currency', 'currency'],
  ['network', 'network'],
  ['pay_address', 'pay_address'],
  ['description', 'description'],
  ['metadata', 'metadata'],
  ['order_id', 'order_id'],
  ['created_at', 'created_at'],
  ['expires_at', 'expires_at'],
  ['paid_at', 'paid_at'],
  ['cancelled_at', 'cancelled_at'],
  ['payment_tx_hash', 'payment_tx_hash'],
  ['payment_amount', 'payment_amount::text'],
  ['payment_simulated', 'payment_simulated'],
  ['pay_amount', 'pay_amount::text'],
  ['redirect_url', 'redirect_url'],
  ['amount_received', 'amount_received::text'],
  ['payment_exception', 'payment_exception'],
  ['payments', "CASE WHEN has_payments THEN invoice_payments_json(id) ELSE '[]'::json END"],
  ['pay_token', 'pay_token'],
  ['price_amount', 'price_amount::text'],
  ['price_currency', 'price_currency'],
  ['rate', 'rate'],
  ['rate_source', 'rate_source'],
  ['rate_at', 'rate_at'],
] as const satisfies ReadonlyArray<readonly [Exclude<keyof InvoiceSnapshot, 'version'>, string]>;

type ListedField = (typeof SNAPSHOT_FIELDS)[number][0];
// Compile-time check: every field of InvoiceSnapshot (but the version) is in SNAPSHOT_FIELDS.
const everyFieldListed: Record<Exclude<keyof InvoiceSnapshot, 'version' | ListedField>, never> = {};
void everyFieldListed;

/** The named, versioned object: what events store, and what creates and transitions return. */
export const INVOICE_SNAPSHOT_SQL = `json_build_object('version', ${INVOICE_SNAPSHOT_VERSION}, ${SNAPSHOT_FIELDS.map(
  ([name, sql]) => `'${name}', ${sql}`,
).join(', ')})`;

/**
 * The same fields as a JSON array in SNAPSHOT_FIELDS order, for reads that are never stored (a page of invoices,
 * one by id). PostgreSQL builds an array with less work than an object and the response carries no field names:
 * measured on the first page of 20, the object cost ≈ 0.2 ms of database CPU and ≈ 0.2 ms of server CPU more per
 * request (docs/benchmarks.md). `fromInvoiceRow` reads it back by the same list.
 */
export const INVOICE_ROW_SQL = `json_build_array(${SNAPSHOT_FIELDS.map(([, sql]) => sql).join(', ')})`;

/** An invoice read with INVOICE_ROW_SQL. */
export function fromInvoiceRow(row: unknown): InvoiceRecord {
  if (!Array.isArray(row) || row.length !== SNAPSHOT_FIELDS.length) {
    throw new Error(
      `an invoice row has ${SNAPSHOT_FIELDS.length} fields (INVOICE_ROW_SQL); got ${JSON.stringify(row)?.slice(0, 80)}`,
    );
  }
  const snapshot: Record<string, unknown> = { version: INVOICE_SNAPSHOT_VERSION };
  SNAPSHOT_FIELDS.forEach(([name], index) => {
    snapshot[name] = row[index];
  });
  return fromSnapshot(snapshot as unknown as InvoiceSnapshot);
}

/** A payment inside an invoice snapshot (invoice_payments_json). Timestamps are ISO strings, numerics decimal strings. */
export interface PaymentSnapshot {
  id: string;
  tx_hash: string;
  log_index: number;
  network: string;
  currency: string;
  amount: string;
  from_address: string;
  block_number: string | null;
  status: PaymentRecord['status'];
  confirmations: number;
  detected_at: string;
  confirmed_at: string | null;
}

export interface InvoiceSnapshot {
  version: typeof INVOICE_SNAPSHOT_VERSION | 1;
  id: string;
  environment: KeyEnvironment;
  status: StoredInvoiceStatus;
  amount: string;
  currency: string;
  network: string;
  pay_address: string;
  description: string | null;
  metadata: Record<string, string> | null;
  order_id: string | null;
  created_at: string;
  expires_at: string;
  paid_at: string | null;
  cancelled_at: string | null;
  payment_tx_hash: string | null;
  payment_amount: string | null;
  payment_simulated: boolean | null;
  pay_amount: string;
  redirect_url: string | null;
  amount_received: string;
  payment_exception: string | null;
  payments: PaymentSnapshot[];
  /** Null only in snapshots written before the hosted page existed. */
  pay_token: string | null;
  /** Priced in fiat (docs/rates.md); absent in version 1, null when priced with amount. */
  price_amount?: string | null;
  price_currency?: string | null;
  rate?: string | null;
  rate_source?: string | null;
  rate_at?: string | null;
}

const date = (value: string | null) => (value === null ? null : new Date(value));

function paymentFromSnapshot(payment: PaymentSnapshot): PaymentRecord {
  return {
    id: payment.id,
    txHash: payment.tx_hash,
    logIndex: payment.log_index,
    network: payment.network,
    currency: payment.currency,
    amount: payment.amount,
    fromAddress: payment.from_address,
    blockNumber: payment.block_number === null ? null : BigInt(payment.block_number),
    status: payment.status,
    confirmations: payment.confirmations,
    detectedAt: new Date(payment.detected_at),
    confirmedAt: date(payment.confirmed_at),
  };
}

export function fromSnapshot(snapshot: InvoiceSnapshot): InvoiceRecord {
  if (!READABLE_VERSIONS.includes(snapshot.version)) {
    throw new Error(
      `invoice snapshot version ${String(snapshot.version)} is not one of ${READABLE_VERSIONS.join(', ')} (a migration is missing)`,
    );
  }
  return {
    id: snapshot.id,
    environment: snapshot.environment,
    status: snapshot.status,
    amount: snapshot.amount,
    currency: snapshot.currency,
    network: snapshot.network,
    payAddress: snapshot.pay_address,
    description: snapshot.description,
    metadata: snapshot.metadata ?? {},
    orderId: snapshot.order_id,
    createdAt: new Date(snapshot.created_at),
    expiresAt: new Date(snapshot.expires_at),
    paidAt: date(snapshot.paid_at),
    cancelledAt: date(snapshot.cancelled_at),
    paymentTxHash: snapshot.payment_tx_hash,
    paymentAmount: snapshot.payment_amount,
    paymentSimulated: snapshot.payment_simulated,
    payAmount: snapshot.pay_amount,
    redirectUrl: snapshot.redirect_url,
    amountReceived: snapshot.amount_received,
    paymentException: snapshot.payment_exception,
    payments: snapshot.payments.map(paymentFromSnapshot),
    payToken: snapshot.pay_token,
    priceAmount: snapshot.price_amount ?? null,
    priceCurrency: snapshot.price_currency ?? null,
    rate: snapshot.rate ?? null,
    rateSource: snapshot.rate_source ?? null,
    rateAt: date(snapshot.rate_at ?? null),
  };
}
