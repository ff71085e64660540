import { meteringSql, runStatement } from '../db';
import { AMOUNT_RECEIVED_SQL } from '../invoices/filters';
import { INVOICE_STATUSES, type InvoiceStatus } from '../invoices/state';
import type { Tenant } from '../tenant';
import { daysInUtcMonth, startOfNextUtcMonth, startOfUtcMonth } from '../usage/period';

/**
 * The Overview's figures (docs/portal.md, "Overview"): read-only, every statement scoped to one workspace and
 * one environment (the unmatched payments: to the workspace, which only live money reaches). Sums are computed
 * by PostgreSQL as numeric and returned as decimal strings; the month is the UTC calendar month.
 */
export interface CurrencyVolume {
  currency: string;
  /** Invoices paid this month (paid_at in the month). */
  count: number;
  /** What they received (as the API's amount_received), summed. */
  received: string;
}

export interface FiatVolume {
  priceCurrency: string;
  /** Paid invoices priced in this fiat currency, and their prices summed. */
  count: number;
  amount: string;
}

export interface MonthVolume {
  byCurrency: CurrencyVolume[];
  byFiat: FiatVolume[];
  /** Paid invoices this month with no fiat price (priced in crypto): not in byFiat. */
  unpricedCount: number;
}

const tenantSql = `workspace_id = $1 AND environment = $2::"Environment"`;

export async function monthVolume(tenant: Tenant, now = new Date()): Promise<MonthVolume> {
  const values = [tenant.workspaceId, tenant.environment, startOfUtcMonth(now), startOfNextUtcMonth(now)];
  const paidThisMonth = `${tenantSql} AND status = 'paid' AND paid_at >= $3::timestamptz AND paid_at < $4::timestamptz`;
  const [byCurrency, byFiat] = await Promise.all([
    runStatement<{ currency: string; count: string; received: string }>(
      meteringSql(),
      `SELECT currency, count(*)::text AS count, sum(${AMOUNT_RECEIVED_SQL})::text AS received
         FROM invoices WHERE ${paidThisMonth} GROUP BY currency ORDER BY currency`,
      values,
    ),
    runStatement<{ price_currency: string | null; count: string; amount: string | null }>(
      meteringSql(),
      `SELECT price_currency, count(*)::text AS count, sum(price_amount)::text AS amount
         FROM invoices WHERE ${paidThisMonth} GROUP BY price_currency ORDER BY price_currency NULLS LAST`,
      values,
    ),
  ]);
  return {
    byCurrency: byCurrency.map((row) => ({ currency: row.currency, count: Number(row.count), received: row.received })),
    byFiat: byFiat
      .filter((row) => row.price_currency !== null)
      .map((row) => ({ priceCurrency: row.price_currency!, count: Number(row.count), amount: row.amount ?? '0' })),
    unpricedCount: Number(byFiat.find((row) => row.price_currency === null)?.count ?? 0),
  };
}

/** Invoices created this month by status as the API reports it (pending past expires_at is expired). */
export async function monthStatusCounts(tenant: Tenant, now = new Date()): Promise<Record<InvoiceStatus, number>> {
  const rows = await runStatement<{ status: InvoiceStatus; count: string }>(
    meteringSql(),
    `SELECT CASE WHEN status = 'pending' AND expires_at <= $5::timestamptz THEN 'expired' ELSE status::text END AS status, count(*)::text AS count
       FROM invoices WHERE ${tenantSql} AND created_at >= $3::timestamptz AND created_at < $4::timestamptz
      GROUP BY 1`,
    [tenant.workspaceId, tenant.environment, startOfUtcMonth(now), startOfNextUtcMonth(now), now],
  );
  const counts = Object.fromEntries(INVOICE_STATUSES.map((status) => [status, 0])) as Record<InvoiceStatus, number>;
  for (const row of rows) counts[row.status] = Number(row.count);
  return counts;
}

export interface DailyPayments {
  /** "YYYY-MM-DD" (UTC). */
  day: string;
  count: number;
}

/** Invoices paid per UTC day of this month, every day listed (zeros included). */
export async function dailyPayments(tenant: Tenant, now = new Date()): Promise<DailyPayments[]> {
  const start = startOfUtcMonth(now);
  const rows = await runStatement<{ day: string; count: string }>(
    meteringSql(),
    `SELECT to_char(paid_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, count(*)::text AS count
       FROM invoices WHERE ${tenantSql} AND status = 'paid' AND paid_at >= $3::timestamptz AND paid_at < $4::timestamptz
      GROUP BY 1`,
    [tenant.workspaceId, tenant.environment, start, startOfNextUtcMonth(now)],
  );
  const byDay = new Map(rows.map((row) => [row.day, Number(row.count)]));
  return Array.from({ length: daysInUtcMonth(now) }, (_, i) => {
    const day = new Date(start.getTime() + i * 86_400_000).toISOString().slice(0, 10);
    return { day, count: byDay.get(day) ?? 0 };
  });
}

export interface OverviewAlerts {
  /** Confirmed transfers to this workspace's wallets that matched no invoice (live money only). */
  unmatchedPayments: number;
  /**
   * Endpoints of this environment whose last attempts failed (failing_since set; it stays set when the worker turns
   * one off for failing). One turned off in the portal is not failing.
   */
  failingEndpoints: number;
  /** Deliveries of this environment that failed for good, or are waiting to retry after a failed attempt. */
  failedDeliveries: number;
  retryingDeliveries: number;
  /** Keys of this environment, not revoked, that expire within KEY_EXPIRY_WARNING_DAYS. */
  keysExpiringSoon: number;
}

export const KEY_EXPIRY_WARNING_DAYS = 7;
/** Failed deliveries count toward the alert for this long (older ones are history, on the endpoint's page). */
export const FAILED_DELIVERY_WINDOW_DAYS = 7;

export async function overviewAlerts(tenant: Tenant, now = new Date()): Promise<OverviewAlerts> {
  const day = 86_400_000;
  const rows = await runStatement<{
    unmatched: string;
    failing: string;
    failed: string;
    retrying: string;
    expiring: string;
  }>(
    meteringSql(),
    `SELECT
       (CASE WHEN $2 = 'live' THEN (SELECT count(*) FROM payments p
          WHERE p.wallet_workspace_id = $1 AND p.invoice_id IS NULL AND p.status = 'confirmed') ELSE 0 END)::text AS unmatched,
       (SELECT count(*) FROM webhook_endpoints e WHERE e.workspace_id = $1 AND e.environment = $2::"Environment"
          AND e.failing_since IS NOT NULL)::text AS failing,
       (SELECT count(*) FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id
          WHERE e.workspace_id = $1 AND e.environment = $2::"Environment" AND d.status = 'failed' AND d.created_at >= $4::timestamptz)::text AS failed,
       (SELECT count(*) FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id
          WHERE e.workspace_id = $1 AND e.environment = $2::"Environment" AND d.status = 'pending' AND d.attempts > 0)::text AS retrying,
       (SELECT count(*) FROM api_keys k WHERE k.workspace_id = $1 AND k.environment = $2::"Environment" AND k.revoked_at IS NULL
          AND k.expires_at > $3::timestamptz AND k.expires_at <= $5::timestamptz)::text AS expiring`,
    [
      tenant.workspaceId,
      tenant.environment,
      now,
      new Date(now.getTime() - FAILED_DELIVERY_WINDOW_DAYS * day),
      new Date(now.getTime() + KEY_EXPIRY_WARNING_DAYS * day),
    ],
  );
  const row = rows[0]!;
  return {
    unmatchedPayments: Number(row.unmatched),
    failingEndpoints: Number(row.failing),
    failedDeliveries: Number(row.failed),
    retryingDeliveries: Number(row.retrying),
    keysExpiringSoon: Number(row.expiring),
  };
}

/** The "Get started" steps, each ticked from what exists (docs/portal.md). */
export interface SetupProgress {
  testKey: boolean;
  testKeyUsed: boolean;
  testInvoice: boolean;
  testInvoicePaid: boolean;
  wallet: boolean;
  webhookEndpoint: boolean;
  liveKey: boolean;
  /** Whether the workspace has any live invoice (the Overview then opens on live). */
  liveInvoice: boolean;
}

export async function setupProgress(workspaceId: string): Promise<SetupProgress> {
  const rows = await runStatement<Record<keyof SetupProgress, boolean>>(
    meteringSql(),
    `SELECT
       EXISTS (SELECT 1 FROM api_keys WHERE workspace_id = $1 AND environment = 'test') AS "testKey",
       EXISTS (SELECT 1 FROM api_keys WHERE workspace_id = $1 AND environment = 'test' AND last_used_at IS NOT NULL) AS "testKeyUsed",
       EXISTS (SELECT 1 FROM invoices WHERE workspace_id = $1 AND environment = 'test') AS "testInvoice",
       EXISTS (SELECT 1 FROM invoices WHERE workspace_id = $1 AND environment = 'test' AND status = 'paid') AS "testInvoicePaid",
       EXISTS (SELECT 1 FROM wallets WHERE workspace_id = $1) AS wallet,
       EXISTS (SELECT 1 FROM webhook_endpoints WHERE workspace_id = $1) AS "webhookEndpoint",
       EXISTS (SELECT 1 FROM api_keys WHERE workspace_id = $1 AND environment = 'live' AND revoked_at IS NULL) AS "liveKey",
       EXISTS (SELECT 1 FROM invoices WHERE workspace_id = $1 AND environment = 'live') AS "liveInvoice"`,
    [workspaceId],
  );
  return rows[0]!;
}
