import { durableSql, meteringSql, runStatement } from '../db';
import type { FusedRead } from '../keys/authorize';
import type { KeyEnvironment } from '../keys/secret';
import type { InvoiceRecord } from './serialize';
import type { StoredInvoiceStatus } from './state';

/**
 * The invoice statements on the API's hot paths, one round trip each: read by id and a page of the list
 * (prepared statements on the hot-path pool, the cursor resolved inside the page's statement), and create
 * with the wallet lookup inside the INSERT (on the durable pool). Every statement is
 * scoped by workspace and environment.
 */
interface InvoiceSqlRow {
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
  created_at: Date;
  expires_at: Date;
  paid_at: Date | null;
  cancelled_at: Date | null;
  payment_tx_hash: string | null;
  payment_amount: string | null;
  payment_simulated: boolean | null;
}

const COLUMNS = `id, environment::text AS environment, status::text AS status, amount::text AS amount, currency, network,
  pay_address, description, metadata, order_id, created_at, expires_at, paid_at, cancelled_at, payment_tx_hash,
  payment_amount::text AS payment_amount, payment_simulated`;

function toRecord(row: InvoiceSqlRow): InvoiceRecord {
  return {
    id: row.id,
    environment: row.environment,
    status: row.status,
    amount: row.amount,
    currency: row.currency,
    network: row.network,
    payAddress: row.pay_address,
    description: row.description,
    metadata: row.metadata ?? {},
    orderId: row.order_id,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    paidAt: row.paid_at,
    cancelledAt: row.cancelled_at,
    paymentTxHash: row.payment_tx_hash,
    paymentAmount: row.payment_amount,
    paymentSimulated: row.payment_simulated,
  };
}

export interface Scope {
  workspaceId: string;
  environment: KeyEnvironment;
}

export async function selectInvoice(scope: Scope, id: string): Promise<InvoiceRecord | null> {
  const rows = await runStatement<InvoiceSqlRow>(
    meteringSql(),
    `SELECT ${COLUMNS} FROM invoices WHERE id = $1 AND workspace_id = $2 AND environment = $3::"Environment"`,
    [id, scope.workspaceId, scope.environment],
  );
  return rows[0] ? toRecord(rows[0]) : null;
}

/** The same row as JSON (row_to_json: timestamps as ISO strings, numerics already cast to text). */
type InvoiceJsonRow = Omit<InvoiceSqlRow, 'created_at' | 'expires_at' | 'paid_at' | 'cancelled_at'> & {
  created_at: string;
  expires_at: string;
  paid_at: string | null;
  cancelled_at: string | null;
};

const date = (value: string | null) => (value === null ? null : new Date(value));

function fromJson(row: InvoiceJsonRow): InvoiceRecord {
  return toRecord({
    ...row,
    created_at: new Date(row.created_at),
    expires_at: new Date(row.expires_at),
    paid_at: date(row.paid_at),
    cancelled_at: date(row.cancelled_at),
  });
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
    name: 'invoice-by-id',
    sql: (param) =>
      `(SELECT row_to_json(i) FROM (SELECT ${COLUMNS} FROM invoices
         WHERE id = ${param(id)} AND workspace_id = ${KEY_SCOPE.workspace} AND environment = ${KEY_SCOPE.environment}) i)`,
    parse: (json) => (json === null ? null : fromJson(json as InvoiceJsonRow)),
  };
}

export type ListStatus = StoredInvoiceStatus | 'expired' | 'any';

export interface PageQuery {
  status: ListStatus;
  cursor: string | null;
  take: number;
  now: Date;
}

export interface InvoicePage {
  rows: InvoiceRecord[];
  /** False only when a cursor was given and names no invoice of this workspace and environment. */
  cursorFound: boolean;
}

/**
 * One page, newest first, as SQL: keyset on the monotonic `seq`, the cursor's position looked up inside the
 * statement (scoped, so another tenant's id positions nothing). `pending` and `expired` are derived from
 * expires_at. Serves both the standalone statement and the one fused into authentication.
 */
function pageSql(query: PageQuery, scope: ScopeSql, param: (value: unknown) => string): { select: string; cursorExists: string } {
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
  return {
    select: `SELECT seq, ${COLUMNS} FROM invoices WHERE ${conditions.join(' AND ')} ORDER BY seq DESC LIMIT ${param(query.take)}`,
    cursorExists,
  };
}

/** A page read by the portal: its own statement (and a second one only for an empty page after a cursor). */
export async function selectInvoicePage(scope: Scope, query: PageQuery): Promise<InvoicePage> {
  const values: unknown[] = [scope.workspaceId, scope.environment];
  const param = (value: unknown) => `$${values.push(value)}`;
  const sql = pageSql(query, { workspace: '$1', environment: '$2::"Environment"' }, param);
  const rows = (await runStatement<InvoiceSqlRow>(meteringSql(), sql.select, values)).map(toRecord);
  if (rows.length > 0 || !query.cursor) return { rows, cursorFound: true };
  return { rows, cursorFound: await invoiceExists(scope, query.cursor) };
}

/**
 * The API's page, answered inside the authentication statement: rows as one JSON array (in seq order), and
 * whether the cursor exists (looked up only when the page is empty). One round trip for GET /v1/invoices.
 */
export function invoicePageRead(query: PageQuery): FusedRead<InvoicePage> {
  return {
    name: `invoice-page-${query.status}-${query.cursor ? 'after-cursor' : 'first'}`,
    sql: (param) => {
      const sql = pageSql(query, KEY_SCOPE, param);
      return `(SELECT json_build_object(
                 'rows', COALESCE(json_agg(p ORDER BY p.seq DESC), '[]'::json),
                 'cursor_found', CASE WHEN count(*) > 0 THEN true ELSE ${sql.cursorExists} END)
               FROM (${sql.select}) p)`;
    },
    parse: (json) => {
      const page = json as { rows: InvoiceJsonRow[]; cursor_found: boolean };
      return { rows: page.rows.map(fromJson), cursorFound: page.cursor_found };
    },
  };
}

export async function invoiceExists(scope: Scope, id: string): Promise<boolean> {
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
  // On a durable session, not a metering one: an invoice must survive a crash.
  const rows = await runStatement<InvoiceSqlRow>(
    durableSql(),
    `WITH wallet AS (SELECT address FROM wallets WHERE workspace_id = $2 AND network = $5)
      INSERT INTO invoices (id, workspace_id, environment, amount, currency, network, pay_address, description, metadata, order_id, created_at, expires_at)
      SELECT $1, $2, $3::"Environment", $4::numeric, $6, $5, COALESCE((SELECT address FROM wallet), $7), $8, $9::jsonb, $10, $11::timestamptz, $12::timestamptz
      WHERE EXISTS (SELECT 1 FROM wallet) OR $7::text IS NOT NULL
      RETURNING ${COLUMNS}`,
    [
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
    ],
  );
  return rows[0] ? toRecord(rows[0]) : null;
}
