import { stringify } from 'csv-stringify/sync';
import { meteringSql, runStatement } from '../db';
import type { Tenant } from '../tenant';
import { AMOUNT_RECEIVED_SQL, filterConditions, type InvoiceFilters } from './filters';
import { formatCurrencyAmount } from './money';
import { formatPrice } from './serialize';

/**
 * The invoice CSV export (docs/portal.md, "CSV export"): every invoice the list's filters match, newest first,
 * read in batches keyset-paginated on `seq` (never OFFSET, never the whole set in memory), one CSV chunk per
 * batch. Every batch is scoped to the tenant by filterConditions.
 */
export const EXPORT_COLUMNS = [
  'id',
  'environment',
  'created_at',
  'paid_at',
  'cancelled_at',
  'expires_at',
  'status',
  'payment_exception',
  'amount',
  'currency',
  'network',
  'pay_amount',
  'amount_received',
  'price_amount',
  'price_currency',
  'rate',
  'rate_source',
  'tx_hash',
  'payment_simulated',
  'description',
  'order_id',
  'metadata',
] as const;
export type ExportColumn = (typeof EXPORT_COLUMNS)[number];

export const EXPORT_BATCH_SIZE = 1000;

interface ExportRow {
  seq: string;
  id: string;
  environment: string;
  created_at: Date;
  paid_at: Date | null;
  cancelled_at: Date | null;
  expires_at: Date;
  status: string;
  payment_exception: string | null;
  amount: string;
  currency: string;
  network: string;
  pay_amount: string;
  amount_received: string;
  price_amount: string | null;
  price_currency: string | null;
  rate: string | null;
  rate_source: string | null;
  tx_hash: string | null;
  payment_simulated: boolean | null;
  description: string | null;
  order_id: string | null;
  metadata: Record<string, string> | null;
}

/** One batch after `afterSeq` (exclusive; null = from the newest). Exported for the tests of the keyset. */
export async function selectExportBatch(
  tenant: Tenant,
  filters: InvoiceFilters,
  now: Date,
  afterSeq: string | null,
  limit = EXPORT_BATCH_SIZE,
): Promise<ExportRow[]> {
  const values: unknown[] = [];
  const param = (value: unknown) => `$${values.push(value)}`;
  const conditions = filterConditions(tenant, filters, now, param);
  if (afterSeq !== null) conditions.push(`seq < ${param(afterSeq)}::bigint`);
  return runStatement<ExportRow>(
    meteringSql(),
    `SELECT seq::text AS seq, id, environment::text AS environment, created_at, paid_at, cancelled_at, expires_at,
            CASE WHEN status = 'pending' AND expires_at <= ${param(now)}::timestamptz THEN 'expired' ELSE status::text END AS status,
            payment_exception, amount::text AS amount, currency, network, pay_amount::text AS pay_amount,
            ${AMOUNT_RECEIVED_SQL}::text AS amount_received, price_amount::text AS price_amount, price_currency, rate, rate_source,
            COALESCE(payment_tx_hash, (SELECT string_agg(p.tx_hash, ' ' ORDER BY p.detected_at, p.id) FROM payments p
                                        WHERE p.invoice_id = invoices.id AND p.status = 'confirmed')) AS tx_hash,
            payment_simulated, description, order_id, metadata
       FROM invoices WHERE ${conditions.join(' AND ')}
      -- invoices.seq, not the text alias of the select list: ORDER BY would otherwise sort the text.
      ORDER BY invoices.seq DESC LIMIT ${param(limit)}`,
    values,
  );
}

const iso = (value: Date | null) => (value ? value.toISOString() : '');

/**
 * Text typed by people (or their API calls) that a spreadsheet would run as a formula (=, +, -, @, tab, CR at
 * the start) gets a leading apostrophe, as OWASP advises for CSV exports; everything else is written as is.
 */
export function spreadsheetSafe(value: string | null): string {
  if (value === null) return '';
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

export function exportRecord(row: ExportRow): Record<ExportColumn, string> {
  return {
    id: row.id,
    environment: row.environment,
    created_at: iso(row.created_at),
    paid_at: iso(row.paid_at),
    cancelled_at: iso(row.cancelled_at),
    expires_at: iso(row.expires_at),
    status: row.status,
    payment_exception: row.payment_exception ?? '',
    amount: formatCurrencyAmount(row.amount, row.currency),
    currency: row.currency,
    network: row.network,
    pay_amount: formatCurrencyAmount(row.pay_amount, row.currency),
    amount_received: formatCurrencyAmount(row.amount_received, row.currency),
    price_amount:
      row.price_amount !== null && row.price_currency !== null ? formatPrice(row.price_amount, row.price_currency) : '',
    price_currency: row.price_currency ?? '',
    rate: row.rate ?? '',
    rate_source: row.rate_source ?? '',
    tx_hash: row.tx_hash ?? '',
    payment_simulated: row.payment_simulated === null ? '' : String(row.payment_simulated),
    description: spreadsheetSafe(row.description),
    order_id: spreadsheetSafe(row.order_id),
    metadata: row.metadata && Object.keys(row.metadata).length > 0 ? spreadsheetSafe(JSON.stringify(row.metadata)) : '',
  };
}

/** The CSV, chunk by chunk: the header line, then one chunk per batch. Memory holds one batch at a time. */
export async function* invoiceCsvChunks(
  tenant: Tenant,
  filters: InvoiceFilters,
  now = new Date(),
  batchSize = EXPORT_BATCH_SIZE,
): AsyncGenerator<string> {
  yield stringify([[...EXPORT_COLUMNS]]);
  let afterSeq: string | null = null;
  for (;;) {
    const rows = await selectExportBatch(tenant, filters, now, afterSeq, batchSize);
    if (rows.length === 0) return;
    yield stringify(rows.map(exportRecord), { columns: [...EXPORT_COLUMNS] });
    if (rows.length < batchSize) return;
    afterSeq = rows.at(-1)!.seq;
  }
}

/** The download's file name: the environment and the UTC time of the export. */
export function exportFileName(environment: string, now: Date): string {
  return `invoices-${environment}-${now.toISOString().slice(0, 19).replace(/[:T]/g, '-')}.csv`;
}
