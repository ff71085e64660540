import { meteringSql, runStatement } from '../db';
import type { Tenant } from '../tenant';
import { AMOUNT_RECEIVED_SQL, filterConditions, type InvoiceFilters } from './filters';
import type { InvoiceResource } from './schemas';
import { toInvoiceResource } from './serialize';
import { fromSnapshot, INVOICE_SNAPSHOT_SQL, type InvoiceSnapshot } from './snapshot';

/**
 * The portal's invoice list under its filters (lib/invoices/filters.ts): a page newest first, keyset on the
 * monotonic `seq` (the cursor is an invoice id, positioned inside the statement and scoped to the tenant, so
 * another workspace's id positions nothing), and the totals of every matching invoice per currency.
 */
export interface FilteredPage {
  invoices: InvoiceResource[];
  /** The last invoice's id when there are more, else null. */
  nextCursor: string | null;
  /** False only when `after` names no invoice of this workspace and environment. */
  cursorFound: boolean;
}

export async function listFilteredInvoices(
  tenant: Tenant,
  filters: InvoiceFilters,
  page: { after: string | null; limit: number },
  now = new Date(),
): Promise<FilteredPage> {
  const values: unknown[] = [];
  const param = (value: unknown) => `$${values.push(value)}`;
  const conditions = filterConditions(tenant, filters, now, param);
  if (page.after) {
    conditions.push(
      `seq < (SELECT c.seq FROM invoices c WHERE c.id = ${param(page.after)} AND c.workspace_id = ${param(tenant.workspaceId)} AND c.environment = ${param(tenant.environment)}::"Environment")`,
    );
  }
  const rows = await runStatement<{ invoice: InvoiceSnapshot }>(
    meteringSql(),
    `SELECT ${INVOICE_SNAPSHOT_SQL} AS invoice FROM invoices WHERE ${conditions.join(' AND ')} ORDER BY seq DESC LIMIT ${param(page.limit + 1)}`,
    values,
  );
  const invoices = rows.slice(0, page.limit).map((row) => toInvoiceResource(fromSnapshot(row.invoice), now));
  const cursorFound = rows.length > 0 || !page.after || (await invoiceExists(tenant, page.after));
  return { invoices, nextCursor: rows.length > page.limit ? (invoices.at(-1)?.id ?? null) : null, cursorFound };
}

async function invoiceExists(tenant: Tenant, id: string): Promise<boolean> {
  const rows = await runStatement(
    meteringSql(),
    `SELECT 1 FROM invoices WHERE id = $1 AND workspace_id = $2 AND environment = $3::"Environment"`,
    [id, tenant.workspaceId, tenant.environment],
  );
  return rows.length > 0;
}

/** Per currency, over every invoice the filters match (not only the page shown). Sums are decimal strings. */
export interface CurrencyTotal {
  currency: string;
  count: number;
  /** Sum of `amount` (what was asked). */
  amount: string;
  /** Sum of what was received (AMOUNT_RECEIVED_SQL), as the CSV's amount_received column. */
  amountReceived: string;
  paidCount: number;
}

export async function filteredTotals(
  tenant: Tenant,
  filters: InvoiceFilters,
  now = new Date(),
): Promise<CurrencyTotal[]> {
  const values: unknown[] = [];
  const param = (value: unknown) => `$${values.push(value)}`;
  const rows = await runStatement<{
    currency: string;
    count: string;
    amount: string;
    amount_received: string;
    paid_count: string;
  }>(
    meteringSql(),
    `SELECT currency, count(*)::text AS count, sum(amount)::text AS amount, sum(${AMOUNT_RECEIVED_SQL})::text AS amount_received,
            (count(*) FILTER (WHERE status = 'paid'))::text AS paid_count
       FROM invoices WHERE ${filterConditions(tenant, filters, now, param).join(' AND ')}
      GROUP BY currency ORDER BY currency`,
    values,
  );
  return rows.map((row) => ({
    currency: row.currency,
    count: Number(row.count),
    amount: row.amount,
    amountReceived: row.amount_received,
    paidCount: Number(row.paid_count),
  }));
}
