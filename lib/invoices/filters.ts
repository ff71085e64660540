import { z } from 'zod';
import type { Tenant } from '../tenant';
import { CURRENCIES, NETWORKS } from './currencies';
import { AMOUNT_PATTERN, InvoiceId } from './schemas';
import { INVOICE_STATUSES } from './state';

/**
 * The portal's invoice filters (docs/portal.md, "Invoices"): one set, read from the page's address, used by the
 * list, its totals and the CSV export, so all three always describe the same invoices. Dates are UTC calendar
 * days of created_at, both ends included; amounts compare the invoice's `amount` (in its own currency).
 */
const optional = <T extends z.ZodType>(schema: T) =>
  z.preprocess(
    (value) =>
      typeof value === 'string' && value.trim() === '' ? undefined : typeof value === 'string' ? value.trim() : value,
    schema.optional(),
  );

const Day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'Dates are YYYY-MM-DD')
  .refine(
    (value) =>
      !Number.isNaN(Date.parse(`${value}T00:00:00Z`)) && new Date(`${value}T00:00:00Z`).toISOString().startsWith(value),
    'Not a calendar date',
  );

const AmountBound = z.string().max(40).regex(AMOUNT_PATTERN, 'Amounts are decimals such as 10.50');

export const InvoiceFilters = z
  .object({
    q: optional(z.string().max(128, 'Search by an invoice id or an order id (at most 128 characters)')),
    status: optional(z.enum(INVOICE_STATUSES)),
    network: optional(z.enum(NETWORKS)),
    currency: optional(z.enum(CURRENCIES)),
    from: optional(Day),
    to: optional(Day),
    min: optional(AmountBound),
    max: optional(AmountBound),
  })
  .refine((f) => !f.from || !f.to || f.from <= f.to, {
    message: 'The “from” date is after the “to” date',
    path: ['to'],
  });
export type InvoiceFilters = z.output<typeof InvoiceFilters>;

export const FILTER_NAMES = [
  'q',
  'status',
  'network',
  'currency',
  'from',
  'to',
  'min',
  'max',
] as const satisfies ReadonlyArray<keyof InvoiceFilters>;

/** The filters from a page's search parameters (the first value of each); unknown parameters are ignored. */
export function parseInvoiceFilters(params: Record<string, string | string[] | undefined>) {
  const picked = Object.fromEntries(FILTER_NAMES.map((name) => [name, [params[name]].flat()[0]]));
  return InvoiceFilters.safeParse(picked);
}

/** The filters as search parameters (empty ones left out), for links that keep them. */
export function filterSearchParams(filters: InvoiceFilters): URLSearchParams {
  const search = new URLSearchParams();
  for (const name of FILTER_NAMES) {
    const value = filters[name];
    if (value) search.set(name, value);
  }
  return search;
}

export function hasFilters(filters: InvoiceFilters): boolean {
  return FILTER_NAMES.some((name) => Boolean(filters[name]));
}

/**
 * The WHERE conditions (joined with AND) for `invoices` rows (column names unqualified): the tenant first, always.
 * `param` adds a bound value and returns its placeholder. `pending` and `expired` are derived from expires_at at
 * `now`, as the API's list does.
 */
export function filterConditions(
  tenant: Tenant,
  filters: InvoiceFilters,
  now: Date,
  param: (value: unknown) => string,
): string[] {
  const conditions = [
    `workspace_id = ${param(tenant.workspaceId)}`,
    `environment = ${param(tenant.environment)}::"Environment"`,
  ];
  switch (filters.status) {
    case undefined:
      break;
    case 'pending':
      conditions.push(`status = 'pending'`, `expires_at > ${param(now)}::timestamptz`);
      break;
    case 'expired':
      conditions.push(`status = 'pending'`, `expires_at <= ${param(now)}::timestamptz`);
      break;
    default:
      conditions.push(`status = ${param(filters.status)}::"InvoiceStatus"`);
  }
  if (filters.q) {
    const q = param(filters.q);
    conditions.push(InvoiceId.safeParse(filters.q).success ? `(id = ${q} OR order_id = ${q})` : `order_id = ${q}`);
  }
  if (filters.network) conditions.push(`network = ${param(filters.network)}`);
  if (filters.currency) conditions.push(`currency = ${param(filters.currency)}`);
  if (filters.from) conditions.push(`created_at >= ${param(filters.from)}::date::timestamp AT TIME ZONE 'UTC'`);
  if (filters.to) conditions.push(`created_at < (${param(filters.to)}::date + 1)::timestamp AT TIME ZONE 'UTC'`);
  if (filters.min) conditions.push(`amount >= ${param(filters.min)}::numeric`);
  if (filters.max) conditions.push(`amount <= ${param(filters.max)}::numeric`);
  return conditions;
}

/**
 * What the payer sent, as the API reports it (lib/invoices/serialize.ts toInvoiceResource): a simulated payment
 * of a paid test invoice counts as its whole pay_amount; otherwise the confirmed transfers summed into
 * amount_received. Totals and the CSV use this one expression.
 */
export const AMOUNT_RECEIVED_SQL = `(CASE WHEN status = 'paid' AND payment_simulated IS TRUE THEN pay_amount ELSE amount_received END)`;
