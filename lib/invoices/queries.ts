import { durableSql, runStatement } from '../db';
import { runBatchedInGroupCommit, runInGroupCommit, type BatchedStatement } from '../db-group-commit';
import { newId } from '../ids';
import { idempotencyRecordCte, type IdempotencyClaim } from '../idempotency/record';
import { invoiceEventCte, invoiceEventInsertSql } from './invoice-events';
import { fromInvoiceRow, fromSnapshot, INVOICE_ROW_SQL, type InvoiceSnapshot } from './snapshot';
import type { Tenant } from '../tenant';
import { runTenantRead, type TenantRead, type TenantSql } from '../tenant-read';
import type { InvoiceRecord } from './serialize';
import { INVOICE_TRANSITIONS, type StoredInvoiceStatus, type Transition } from './state';
import { transitionToSql, transitionWhere } from './transition-sql';
import type { LockedPrice } from '../rates/lock';

/**
 * The invoice statements on the API's hot paths: read by id and a page of the list (each a TenantRead, which the
 * API answers inside the authentication statement; the cursor is resolved inside the page's statement), and
 * create with the wallet lookup inside the INSERT (on a durable session). Every statement is bounded by the
 * tenant (workspace and environment).
 */

/** A standalone statement's rows: one invoice each. */
type InvoiceResultRow = { invoice: InvoiceSnapshot };

/**
 * One invoice of the tenant by id, or null. The API answers it inside the authentication statement (one round
 * trip for GET /v1/invoices/{id}); the portal and the transitions run it alone (lib/tenant-read.ts).
 */
export function invoiceByIdRead(id: string): TenantRead<InvoiceRecord | null> {
  return {
    sql: (tenant, param) =>
      `(SELECT ${INVOICE_ROW_SQL} FROM invoices
         WHERE id = ${param(id)} AND workspace_id = ${tenant.workspace} AND environment = ${tenant.environment})`,
    parse: (json) => (json === null ? null : fromInvoiceRow(json)),
  };
}

export function selectInvoice(tenant: Tenant, id: string): Promise<InvoiceRecord | null> {
  return runTenantRead(tenant, invoiceByIdRead(id));
}

export type ListStatus = StoredInvoiceStatus | 'expired' | 'any';

export interface PageQuery {
  status: ListStatus;
  cursor: string | null;
  /** Rows wanted, at least; a page may return more (see limitBucket). */
  take: number;
  now: Date;
}

export interface InvoicePage {
  rows: InvoiceRecord[];
  /** False only when a cursor was given and names no invoice of this workspace and environment. */
  cursorFound: boolean;
}

/**
 * The page's LIMIT is a literal, the smallest of these buckets at or above the rows wanted (the caller slices).
 * With a parameter, PostgreSQL's generic plan assumes a tenth of the table, looks far costlier than a custom
 * plan, and so the statement — authentication included — was planned afresh on every execution (≈ 0.5 ms of
 * database CPU). With a literal, every page shape settles on its generic plan after five executions. Buckets
 * keep the prepared statements per connection bounded (6 × the page shapes) whatever limits clients send; the
 * common limits 1, 10, 20, 25, 50, 100 fetch exactly one row more than asked.
 */
const LIMIT_BUCKETS = [2, 11, 21, 26, 51, 101];

export function limitBucket(take: number): number {
  if (!Number.isInteger(take) || take < 1) throw new Error(`invalid page size ${take}`);
  return LIMIT_BUCKETS.find((bucket) => bucket >= take) ?? take;
}

/**
 * One page, newest first, as SQL: keyset on the monotonic `seq`, the cursor's position looked up inside the
 * statement (scoped, so another tenant's id positions nothing). `pending` and `expired` are derived from
 * expires_at. Serves both the standalone statement and the one fused into authentication.
 */
function pageSql(
  query: PageQuery,
  tenant: TenantSql,
  param: (value: unknown) => string,
): { from: string; cursorExists: string } {
  const conditions = [`workspace_id = ${tenant.workspace}`, `environment = ${tenant.environment}`];
  switch (query.status) {
    case 'any':
      break;
    case 'pending':
      conditions.push(`status = 'pending'`, `expires_at > ${param(query.now)}`);
      break;
    case 'expired':
      conditions.push(`status = 'pending'`, `expires_at <= ${param(query.now)}`);
      break;
    default:
      conditions.push(`status = ${param(query.status)}::"InvoiceStatus"`);
  }
  let cursorExists = 'true';
  if (query.cursor) {
    const cursor = `SELECT c.seq FROM invoices c WHERE c.id = ${param(query.cursor)} AND c.workspace_id = ${tenant.workspace} AND c.environment = ${tenant.environment}`;
    conditions.push(`seq < (${cursor})`);
    cursorExists = `EXISTS (${cursor})`;
  }
  return {
    from: `FROM invoices WHERE ${conditions.join(' AND ')} ORDER BY seq DESC LIMIT ${limitBucket(query.take)}`,
    cursorExists,
  };
}

/** The page read's JSON: the rows newest first, and whether the cursor exists. */
interface InvoicePageJson {
  rows: unknown[];
  cursor_found: boolean;
}

/**
 * A page of the tenant's invoices (the cursor's existence is looked up only when the page is empty). The API
 * answers it inside the authentication statement, one round trip for GET /v1/invoices; the portal runs it alone.
 */
export function invoicePageRead(query: PageQuery): TenantRead<InvoicePage> {
  return {
    sql: (tenant, param) => {
      const sql = pageSql(query, tenant, param);
      return `(SELECT json_build_object(
                 'rows', COALESCE(json_agg(${INVOICE_ROW_SQL} ORDER BY p.seq DESC), '[]'::json),
                 'cursor_found', CASE WHEN count(*) > 0 THEN true ELSE ${sql.cursorExists} END)
               FROM (SELECT * ${sql.from}) p)`;
    },
    parse: (json) => {
      const page = json as InvoicePageJson;
      return { rows: page.rows.map(fromInvoiceRow), cursorFound: page.cursor_found };
    },
  };
}

export interface NewInvoice {
  id: string;
  amount: string;
  currency: string;
  network: string;
  description: string | null;
  metadata: Record<string, string>;
  orderId: string | null;
  redirectUrl: string | null;
  createdAt: Date;
  expiresAt: Date;
  /**
   * Test invoices: the documented test address, always (docs/api.md: a test invoice never shows a real wallet).
   * Live invoices: null, and the workspace's wallet for the network is used.
   */
  testAddress: string | null;
  /** Priced in fiat (docs/rates.md): the price and the rate locked for it; null when priced with amount. */
  price: LockedPrice | null;
}

/** How a live invoice's pay_amount is chosen (lib/invoices/pay-amount.ts). */
export interface PayAmountRule {
  step: string;
  suffixes: number;
  /** 0 ≤ start < suffixes: where the search for a free suffix begins (random, so concurrent creates rarely meet). */
  start: number;
  /** Until when the amount stays reserved: expires_at + the monitoring window. */
  reservedUntil: Date;
  /** Reservation addresses are compared lower-case (EVM addresses are case-insensitive). */
  lowerCaseAddress: boolean;
}

export type InsertOutcome =
  | { kind: 'created'; record: InvoiceRecord }
  | { kind: 'no_wallet' }
  /** Every suffix was taken (or a concurrent create took the one chosen): try again with another start. */
  | { kind: 'no_pay_amount' };

export const INSERT_COLUMNS = `id, workspace_id, environment, amount, currency, network, pay_address, description, metadata, order_id,
  created_at, expires_at, redirect_url, pay_amount, price_amount, price_currency, rate, rate_source, rate_at`;

/** The locked price's five values, in INSERT_COLUMNS order (all null when priced with amount). */
export function priceValues(invoice: NewInvoice): unknown[] {
  const price = invoice.price;
  return price
    ? [price.amount, price.currency, price.rate, price.rateSource, price.rateAt]
    : [null, null, null, null, null];
}

/** The fields both insert statements start with: $1…$12 of the live one, elements 0…11 of a test row. */
export function commonValues(tenant: Tenant, invoice: NewInvoice): unknown[] {
  return [
    invoice.id,
    tenant.workspaceId,
    tenant.environment,
    invoice.amount,
    invoice.network,
    invoice.currency,
    invoice.description,
    invoice.metadata,
    invoice.orderId,
    invoice.createdAt,
    invoice.expiresAt,
    invoice.redirectUrl,
  ];
}

/**
 * Test invoices: paid to the documented test address (never a real wallet), pay_amount = amount (test invoices
 * are never matched on chain, so nothing is reserved). Durable (an invoice must survive a crash), and written
 * with the other test creates of the same moment by ONE statement in a group commit (lib/db-group-commit.ts):
 * each invoice's invoice.created event is written by the same statement, so both are written or neither. The
 * rows travel as one JSON array, in order; the events' seq follows it. A create sent with an Idempotency-Key
 * stores its key's record in the same statement (lib/idempotency/record.ts).
 */
const insertTestInvoices: BatchedStatement<TestInvoiceInput, InvoiceResultRow> = {
  build: (inputs) => ({
    // The input columns are named in_* so that none shadows an invoices column INVOICE_SNAPSHOT_SQL reads unqualified.
    text: `WITH input AS (
        SELECT r->>0 AS in_id, r->>1 AS in_workspace_id, (r->>2)::"Environment" AS in_environment, (r->>3)::numeric AS in_amount,
          r->>4 AS in_network, r->>5 AS in_currency, r->>6 AS in_description, r->7 AS in_metadata, r->>8 AS in_order_id,
          (r->>9)::timestamptz AS in_created_at, (r->>10)::timestamptz AS in_expires_at, r->>11 AS in_redirect_url,
          r->>12 AS in_pay_address, r->>13 AS in_event_id, r->>14 AS in_idempotency_key, r->>15 AS in_request_hash,
          (r->>16)::int AS in_response_status, (r->>17)::numeric AS in_price_amount, r->>18 AS in_price_currency,
          r->>19 AS in_rate, r->>20 AS in_rate_source, (r->>21)::timestamptz AS in_rate_at, n AS in_position
        FROM jsonb_array_elements($1::jsonb) WITH ORDINALITY AS t(r, n)
        WHERE r->>12 IS NOT NULL),
      inserted AS (
        INSERT INTO invoices (${INSERT_COLUMNS})
        SELECT in_id, in_workspace_id, in_environment, in_amount, in_currency, in_network, in_pay_address, in_description,
          in_metadata, in_order_id, in_created_at, in_expires_at, in_redirect_url, in_amount,
          in_price_amount, in_price_currency, in_rate, in_rate_source, in_rate_at
        FROM input ORDER BY in_position
        RETURNING *),
      created_event AS (
        ${invoiceEventInsertSql({
          id: 'in_event_id',
          type: "'invoice.created'",
          createdAt: 'in_created_at',
          from: 'inserted JOIN input ON in_id = inserted.id',
          orderBy: 'in_position',
          returning: 'snapshot',
        })}),
      recorded AS (
        INSERT INTO idempotency_records (workspace_id, environment, key, request_hash, response_status, response_snapshot, response_at, created_at)
        SELECT in_workspace_id, in_environment, in_idempotency_key, in_request_hash, in_response_status, snapshot, in_created_at, now()
        FROM created_event JOIN input ON in_id = snapshot->>'id'
        WHERE in_idempotency_key IS NOT NULL)
      SELECT snapshot AS invoice FROM created_event`,
    values: [inputs.map(testInvoiceRow)],
  }),
  key: (input) => input.invoice.id,
  owner: (row) => row.invoice.id,
};

interface TestInvoiceInput {
  tenant: Tenant;
  invoice: NewInvoice;
  eventId: string;
  claim: IdempotencyClaim | null;
}

/**
 * A test row's JSON elements 0…21 (JSON.stringify writes the Dates as ISO strings). The record's response_at is
 * the invoice's created_at: both are the request's time.
 */
function testInvoiceRow({ tenant, invoice, eventId, claim }: TestInvoiceInput): unknown[] {
  return [
    ...commonValues(tenant, invoice),
    invoice.testAddress,
    eventId,
    claim?.key ?? null,
    claim?.fingerprint ?? null,
    claim?.status ?? null,
    ...priceValues(invoice),
  ];
}

/** A test invoice (see insertTestInvoices); no row means it has no test address (→ no_wallet). */
export async function insertTestInvoice(
  tenant: Tenant,
  invoice: NewInvoice,
  claim: IdempotencyClaim | null = null,
): Promise<InsertOutcome> {
  if (claim && claim.at.getTime() !== invoice.createdAt.getTime())
    throw new Error('an idempotent create is stored as of its created_at');
  const rows = await runBatchedInGroupCommit(insertTestInvoices, { tenant, invoice, eventId: newId('event'), claim });
  if (!rows[0]) return { kind: 'no_wallet' };
  if (claim) claim.recorded = true;
  return { kind: 'created', record: fromSnapshot(rows[0].invoice) };
}

/**
 * A live invoice, paid to the workspace's wallet, with a pay_amount reserved in the same statement (one round
 * trip): the first amount + k × step (k = 1…suffixes, from `start`, wrapping) with no live reservation on this
 * network, currency and address is claimed with INSERT … ON CONFLICT; an expired reservation is taken over in
 * place. The primary key of amount_reservations decides races: of two concurrent creates choosing the same
 * amount, the second waits for the first, finds it live, claims nothing and inserts no invoice (→ no_pay_amount,
 * the caller retries from another start).
 */
export async function insertLiveInvoice(
  tenant: Tenant,
  invoice: NewInvoice,
  rule: PayAmountRule,
  claim: IdempotencyClaim | null = null,
): Promise<InsertOutcome> {
  const values = [
    ...commonValues(tenant, invoice),
    rule.step,
    rule.suffixes,
    rule.start,
    rule.reservedUntil,
    rule.lowerCaseAddress,
  ];
  const param = (value: unknown) => `$${values.push(value)}`;
  const [priceAmount, priceCurrency, rate, rateSource, rateAt] = priceValues(invoice).map(param);
  const rows = await runInGroupCommit<{ invoice: InvoiceSnapshot | null; has_wallet: boolean }>(
    `WITH wallet AS (
        SELECT address, CASE WHEN $17::boolean THEN lower(address) ELSE address END AS address_key
        FROM wallets WHERE workspace_id = $2 AND network = $5),
      -- The live reservations near this amount on this address: one range scan of the primary key, hashed
      -- once, so the search below costs O(suffixes) whatever the table statistics say.
      taken AS (
        SELECT r.pay_amount FROM amount_reservations r, wallet
        WHERE r.network = $5 AND r.currency = $6 AND r.address = wallet.address_key
          AND r.pay_amount > $4::numeric AND r.pay_amount <= $4::numeric + $14::int * $13::numeric
          AND r.reserved_until > $10::timestamptz),
      candidate AS (
        SELECT $4::numeric + ((($15::int + k) % $14::int) + 1) * $13::numeric AS pay_amount
        FROM wallet, generate_series(0, $14::int - 1) AS k
        WHERE $4::numeric + ((($15::int + k) % $14::int) + 1) * $13::numeric NOT IN (SELECT pay_amount FROM taken)
        LIMIT 1),
      reserved AS (
        INSERT INTO amount_reservations (network, currency, address, pay_amount, invoice_id, reserved_until)
        SELECT $5, $6, wallet.address_key, candidate.pay_amount, $1, $16::timestamptz FROM wallet, candidate
        ON CONFLICT (network, currency, address, pay_amount) DO UPDATE
          SET invoice_id = EXCLUDED.invoice_id, reserved_until = EXCLUDED.reserved_until
          WHERE amount_reservations.reserved_until <= $10::timestamptz
        RETURNING pay_amount),
      inserted AS (
        INSERT INTO invoices (${INSERT_COLUMNS})
        SELECT $1, $2, $3::"Environment", $4::numeric, $6, $5, wallet.address, $7, $8::jsonb, $9,
          $10::timestamptz, $11::timestamptz, $12, reserved.pay_amount,
          ${priceAmount}::numeric, ${priceCurrency}::text, ${rate}::text, ${rateSource}::text, ${rateAt}::timestamptz
        FROM wallet, reserved
        RETURNING *)
      ${invoiceEventCte('created_event', 'inserted', 'invoice.created', invoice.createdAt, param)}
      ${claim ? idempotencyRecordCte('recorded', claim, 'created_event', 'snapshot', param) : ''}
      SELECT (SELECT snapshot FROM created_event) AS invoice, EXISTS (SELECT 1 FROM wallet) AS has_wallet`,
    values,
  );
  const row = rows[0];
  if (row?.invoice) {
    if (claim) claim.recorded = true;
    return { kind: 'created', record: fromSnapshot(row.invoice) };
  }
  return row?.has_wallet ? { kind: 'no_pay_amount' } : { kind: 'no_wallet' };
}

/** Columns a transition may set, with their SQL casts. */
const TRANSITION_COLUMNS = {
  cancelled_at: 'timestamptz',
  paid_at: 'timestamptz',
  payment_tx_hash: 'text',
  payment_simulated: 'boolean',
} as const;
export type TransitionColumn = keyof typeof TRANSITION_COLUMNS;

/**
 * A compare-and-set API transition (lib/invoices/state.ts: its from-state and guard, here unexpired at `now`) and
 * its event in one statement: the event is written only for a row that changed — as is `claim`'s
 * Idempotency-Key record. Returns null when nothing matched (the caller tells 404 from 409).
 */
export async function updateInvoiceWithEvent(
  tenant: Tenant,
  id: string,
  change: { transition: Transition; set: Partial<Record<TransitionColumn, unknown>>; now: Date },
  claim: IdempotencyClaim | null = null,
): Promise<InvoiceRecord | null> {
  const rule = INVOICE_TRANSITIONS[change.transition];
  const values: unknown[] = [id, tenant.workspaceId, tenant.environment, change.now];
  const param = (value: unknown) => `$${values.push(value)}`;
  const assignments = Object.entries(change.set).map(
    ([column, value]) => `${column} = ${param(value)}::${TRANSITION_COLUMNS[column as TransitionColumn]}`,
  );
  const rows = await runStatement<InvoiceResultRow>(
    durableSql(),
    `WITH changed AS (
        UPDATE invoices SET status = ${transitionToSql(change.transition)}${assignments.map((a) => `, ${a}`).join('')}
         WHERE id = $1 AND workspace_id = $2 AND environment = $3::"Environment"
           AND ${transitionWhere(change.transition, { now: '$4::timestamptz' })}
        RETURNING *)
      ${invoiceEventCte('changed_event', 'changed', rule.event, change.now, param)}
      ${claim ? idempotencyRecordCte('recorded', claim, 'changed_event', 'snapshot', param) : ''}
      SELECT snapshot AS invoice FROM changed_event`,
    values,
  );
  if (!rows[0]) return null;
  if (claim) claim.recorded = true;
  return fromSnapshot(rows[0].invoice);
}
