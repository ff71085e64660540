import { durableSql, meteringSql, runStatement } from '../db';
import { invoiceEventCte } from './invoice-events';
import { fromJson, JSON_ROW, type InvoiceJsonRow } from './json-row';
import type { EventType } from '../events/types';
import type { FusedRead } from '../keys/authorize';
import type { KeyEnvironment } from '../keys/secret';
import type { InvoiceRecord } from './serialize';
import type { StoredInvoiceStatus } from './state';

/**
 * The invoice statements on the API's hot paths: read by id and a page of the list (each also as a read fused
 * into the authentication statement, so the API answers them in one round trip; the cursor is resolved inside
 * the page's statement), and create with the wallet lookup inside the INSERT (on a durable session). Every
 * statement is scoped by workspace and environment.
 */
export interface Scope {
  workspaceId: string;
  environment: KeyEnvironment;
}

/** A standalone statement's rows: one invoice each. */
type InvoiceResultRow = { invoice: InvoiceJsonRow };

export async function selectInvoice(scope: Scope, id: string): Promise<InvoiceRecord | null> {
  const rows = await runStatement<InvoiceResultRow>(
    meteringSql(),
    `SELECT ${JSON_ROW} AS invoice FROM invoices WHERE id = $1 AND workspace_id = $2 AND environment = $3::"Environment"`,
    [id, scope.workspaceId, scope.environment],
  );
  return rows[0] ? fromJson(rows[0].invoice) : null;
}

/** How a statement names the tenant: parameters of its own, or the authenticated key's row `k`. */
interface ScopeSql {
  workspace: string;
  environment: string;
}
const KEY_SCOPE: ScopeSql = { workspace: 'k.workspace_id', environment: 'k.environment::"Environment"' };

/**
 * selectInvoice, answered inside the authentication statement (lib/keys/authorize.ts): scoped by the key's
 * own workspace and environment (`k`), so GET /v1/invoices/{id} is one round trip in all.
 */
export function invoiceByIdRead(id: string): FusedRead<InvoiceRecord | null> {
  return {
    sql: (param) =>
      `(SELECT ${JSON_ROW} FROM invoices
         WHERE id = ${param(id)} AND workspace_id = ${KEY_SCOPE.workspace} AND environment = ${KEY_SCOPE.environment})`,
    parse: (json) => (json === null ? null : fromJson(json as InvoiceJsonRow)),
  };
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
function pageSql(query: PageQuery, scope: ScopeSql, param: (value: unknown) => string): { from: string; cursorExists: string } {
  const conditions = [`workspace_id = ${scope.workspace}`, `environment = ${scope.environment}`];
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
    const cursor = `SELECT c.seq FROM invoices c WHERE c.id = ${param(query.cursor)} AND c.workspace_id = ${scope.workspace} AND c.environment = ${scope.environment}`;
    conditions.push(`seq < (${cursor})`);
    cursorExists = `EXISTS (${cursor})`;
  }
  return { from: `FROM invoices WHERE ${conditions.join(' AND ')} ORDER BY seq DESC LIMIT ${limitBucket(query.take)}`, cursorExists };
}

/** A page read by the portal: its own statement (and a second one only for an empty page after a cursor). */
export async function selectInvoicePage(scope: Scope, query: PageQuery): Promise<InvoicePage> {
  const values: unknown[] = [scope.workspaceId, scope.environment];
  const param = (value: unknown) => `$${values.push(value)}`;
  const sql = pageSql(query, { workspace: '$1', environment: '$2::"Environment"' }, param);
  const rows = (await runStatement<InvoiceResultRow>(meteringSql(), `SELECT ${JSON_ROW} AS invoice ${sql.from}`, values)).map((row) =>
    fromJson(row.invoice),
  );
  if (rows.length > 0 || !query.cursor) return { rows, cursorFound: true };
  return { rows, cursorFound: await invoiceExists(scope, query.cursor) };
}

/**
 * The API's page, answered inside the authentication statement: [rows newest first, whether the cursor
 * exists] (looked up only when the page is empty). One round trip for GET /v1/invoices.
 */
export function invoicePageRead(query: PageQuery): FusedRead<InvoicePage> {
  return {
    sql: (param) => {
      const sql = pageSql(query, KEY_SCOPE, param);
      return `(SELECT json_build_array(
                 COALESCE(json_agg(${JSON_ROW} ORDER BY p.seq DESC), '[]'::json),
                 CASE WHEN count(*) > 0 THEN true ELSE ${sql.cursorExists} END)
               FROM (SELECT * ${sql.from}) p)`;
    },
    parse: (json) => {
      const [rows, cursorFound] = json as [InvoiceJsonRow[], boolean];
      return { rows: rows.map(fromJson), cursorFound };
    },
  };
}

async function invoiceExists(scope: Scope, id: string): Promise<boolean> {
  const rows = await runStatement(
    meteringSql(),
    `SELECT 1 FROM invoices WHERE id = $1 AND workspace_id = $2 AND environment = $3::"Environment"`,
    [id, scope.workspaceId, scope.environment],
  );
  return rows.length > 0;
}

export interface NewInvoice {
  id: string;
  amount: string;
  currency: string;
  network: string;
  description: string | null;
  metadata: Record<string, string>;
  orderId: string | null;
  createdAt: Date;
  expiresAt: Date;
  /** Used when the workspace has no wallet for the network (test invoices only). */
  fallbackAddress: string | null;
}

/**
 * Inserts the invoice paid to the workspace's wallet for the network, or to `fallbackAddress` when there is
 * none. Returns null (nothing written) when there is neither: a live invoice without a wallet.
 */
export async function insertInvoice(scope: Scope, invoice: NewInvoice): Promise<InvoiceRecord | null> {
  const values: unknown[] = [
    invoice.id,
    scope.workspaceId,
    scope.environment,
    invoice.amount,
    invoice.network,
    invoice.currency,
    invoice.fallbackAddress,
    invoice.description,
    invoice.metadata,
    invoice.orderId,
    invoice.createdAt,
    invoice.expiresAt,
  ];
  const param = (value: unknown) => `$${values.push(value)}`;
  // On a durable session, not a metering one: an invoice must survive a crash. Its invoice.created event is
  // a CTE of the same statement: both are written, or neither.
  const rows = await runStatement<InvoiceResultRow>(
    durableSql(),
    `WITH wallet AS (SELECT address FROM wallets WHERE workspace_id = $2 AND network = $5),
      inserted AS (
        INSERT INTO invoices (id, workspace_id, environment, amount, currency, network, pay_address, description, metadata, order_id, created_at, expires_at)
        SELECT $1, $2, $3::"Environment", $4::numeric, $6, $5, COALESCE((SELECT address FROM wallet), $7), $8, $9::jsonb, $10, $11::timestamptz, $12::timestamptz
        WHERE EXISTS (SELECT 1 FROM wallet) OR $7::text IS NOT NULL
        RETURNING *)
      ${invoiceEventCte('created_event', 'inserted', 'invoice.created', invoice.createdAt, param)}
      SELECT ${JSON_ROW} AS invoice FROM inserted`,
    values,
  );
  return rows[0] ? fromJson(rows[0].invoice) : null;
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
 * A compare-and-set transition and its event in one statement: the row changes only when it is in `from`
 * and unexpired at `now`, and the event is written only for a row that changed. Returns null when nothing
 * matched (the caller tells 404 from 409).
 */
export async function updateInvoiceWithEvent(
  scope: Scope,
  id: string,
  change: { from: StoredInvoiceStatus; to: StoredInvoiceStatus; set: Partial<Record<TransitionColumn, unknown>>; event: EventType; now: Date },
): Promise<InvoiceRecord | null> {
  const values: unknown[] = [id, scope.workspaceId, scope.environment, change.from, change.to, change.now];
  const param = (value: unknown) => `$${values.push(value)}`;
  const assignments = Object.entries(change.set).map(
    ([column, value]) => `${column} = ${param(value)}::${TRANSITION_COLUMNS[column as TransitionColumn]}`,
  );
  const rows = await runStatement<InvoiceResultRow>(
    durableSql(),
    `WITH changed AS (
        UPDATE invoices SET status = $5::"InvoiceStatus"${assignments.map((a) => `, ${a}`).join('')}
         WHERE id = $1 AND workspace_id = $2 AND environment = $3::"Environment" AND status = $4::"InvoiceStatus" AND expires_at > $6::timestamptz
        RETURNING *)
      ${invoiceEventCte('changed_event', 'changed', change.event, change.now, param)}
      SELECT ${JSON_ROW} AS invoice FROM changed`,
    values,
  );
  return rows[0] ? fromJson(rows[0].invoice) : null;
}
