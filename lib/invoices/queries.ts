import { durablePool, hotPathPool } from '../db';
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
  const { rows } = await hotPathPool().query<InvoiceSqlRow>({
    name: 'invoice-by-id',
    text: `SELECT ${COLUMNS} FROM invoices WHERE id = $1 AND workspace_id = $2 AND environment = $3::"Environment"`,
    values: [id, scope.workspaceId, scope.environment],
  });
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

/**
 * selectInvoice, answered inside the authentication statement (lib/keys/authorize.ts): scoped by the key's
 * own workspace and environment (`k`), so GET /v1/invoices/{id} is one round trip in all.
 */
export function invoiceByIdRead(id: string): FusedRead<InvoiceRecord | null> {
  return {
    name: 'invoice-by-id',
    sql: (first) =>
      `(SELECT row_to_json(i) FROM (SELECT ${COLUMNS} FROM invoices
         WHERE id = $${first} AND workspace_id = k.workspace_id AND environment = k.environment::"Environment") i)`,
    values: [id],
    parse: (json) => {
      if (json === null) return null;
      const row = json as InvoiceJsonRow;
      return toRecord({
        ...row,
        created_at: new Date(row.created_at),
        expires_at: new Date(row.expires_at),
        paid_at: date(row.paid_at),
        cancelled_at: date(row.cancelled_at),
      });
    },
  };
}

export type ListStatus = StoredInvoiceStatus | 'expired' | 'any';

/**
 * One page, newest first. The cursor's position is looked up inside the statement (scoped, so another
 * tenant's id positions nothing); an unknown cursor yields no rows, and the caller tells it from an empty page.
 * `pending` and `expired` are derived from expires_at. Each shape is its own prepared statement.
 */
export async function selectInvoicePage(scope: Scope, options: { status: ListStatus; cursor: string | null; take: number; now: Date }) {
  const values: unknown[] = [scope.workspaceId, scope.environment, options.take];
  const param = (value: unknown) => `$${values.push(value)}`;
  const conditions = ['workspace_id = $1', 'environment = $2::"Environment"'];
  switch (options.status) {
    case 'any':
      break;
    case 'pending':
      conditions.push(`status = 'pending'`, `expires_at > ${param(options.now)}`);
      break;
    case 'expired':
      conditions.push(`status = 'pending'`, `expires_at <= ${param(options.now)}`);
      break;
    default:
      conditions.push(`status = ${param(options.status)}::"InvoiceStatus"`);
  }
  if (options.cursor) {
    conditions.push(`seq < (SELECT c.seq FROM invoices c WHERE c.id = ${param(options.cursor)} AND c.workspace_id = $1 AND c.environment = $2::"Environment")`);
  }
  const { rows } = await hotPathPool().query<InvoiceSqlRow>({
    name: `invoice-page-${options.status}-${options.cursor ? 'after-cursor' : 'first'}`,
    text: `SELECT ${COLUMNS} FROM invoices WHERE ${conditions.join(' AND ')} ORDER BY seq DESC LIMIT $3`,
    values,
  });
  return rows.map(toRecord);
}

export async function invoiceExists(scope: Scope, id: string): Promise<boolean> {
  const { rowCount } = await hotPathPool().query({
    name: 'invoice-exists',
    text: `SELECT 1 FROM invoices WHERE id = $1 AND workspace_id = $2 AND environment = $3::"Environment"`,
    values: [id, scope.workspaceId, scope.environment],
  });
  return (rowCount ?? 0) > 0;
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
  // On the durable pool, not the hot-path pool: an invoice must survive a crash.
  const { rows } = await durablePool().query<InvoiceSqlRow>({
    name: 'invoice-insert',
    text: `WITH wallet AS (SELECT address FROM wallets WHERE workspace_id = $2 AND network = $5)
      INSERT INTO invoices (id, workspace_id, environment, amount, currency, network, pay_address, description, metadata, order_id, created_at, expires_at)
      SELECT $1, $2, $3::"Environment", $4::numeric, $6, $5, COALESCE((SELECT address FROM wallet), $7), $8, $9::jsonb, $10, $11::timestamptz, $12::timestamptz
      WHERE EXISTS (SELECT 1 FROM wallet) OR $7::text IS NOT NULL
      RETURNING ${COLUMNS}`,
    values: [
      invoice.id,
      scope.workspaceId,
      scope.environment,
      invoice.amount,
      invoice.network,
      invoice.currency,
      invoice.fallbackAddress,
      invoice.description,
      JSON.stringify(invoice.metadata),
      invoice.orderId,
      invoice.createdAt,
      invoice.expiresAt,
    ],
  });
  return rows[0] ? toRecord(rows[0]) : null;
}
