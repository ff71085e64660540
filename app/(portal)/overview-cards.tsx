import Link from 'next/link';
import { LocalTime } from '@/components/local-time';
import { Card, DataTable, Notice, StatusBadge, Td } from '@/components/ui';
import { formatMoney } from '@/lib/invoices/money';
import type { InvoiceResource } from '@/lib/invoices/schemas';
import { INVOICE_STATUSES, type InvoiceStatus } from '@/lib/invoices/state';
import {
  KEY_EXPIRY_WARNING_DAYS,
  type MonthVolume,
  type OverviewAlerts,
  type SetupProgress,
} from '@/lib/portal/overview';
import { formatFiat } from '@/lib/rates/format';
import type { PriceCurrency } from '@/lib/rates/feeds';
import { formatPrice } from '@/lib/invoices/serialize';
import { can, PAGE_PERMISSIONS, type Role } from '@/lib/teams/roles';

/** The Overview's cards (docs/portal.md, "Overview"): presentational, fed by lib/portal/overview.ts. */

const linkClass = 'font-semibold underline';
const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

export function Alerts({
  alerts,
  environment,
  role,
}: {
  alerts: OverviewAlerts;
  environment: 'test' | 'live';
  role: Role;
}) {
  const items: Array<{ key: string; text: string; href: string; linkText: string; allowed: boolean }> = [];
  if (alerts.unmatchedPayments > 0) {
    items.push({
      key: 'unmatched',
      text: `${plural(alerts.unmatchedPayments, 'payment')} reached your wallets without matching an invoice.`,
      href: '/invoices/unmatched',
      linkText: 'Review unmatched payments',
      allowed: can(role, PAGE_PERMISSIONS['/invoices/unmatched']),
    });
  }
  if (alerts.failingEndpoints > 0 || alerts.failedDeliveries > 0 || alerts.retryingDeliveries > 0) {
    const parts = [
      alerts.failingEndpoints > 0
        ? `${plural(alerts.failingEndpoints, `${environment} webhook endpoint`)} failing`
        : null,
      alerts.retryingDeliveries > 0
        ? `${plural(alerts.retryingDeliveries, 'delivery', 'deliveries')} waiting to retry`
        : null,
      alerts.failedDeliveries > 0
        ? `${plural(alerts.failedDeliveries, 'delivery', 'deliveries')} failed in the last 7 days`
        : null,
    ].filter(Boolean);
    items.push({
      key: 'webhooks',
      text: `${parts.join('; ')}.`,
      href: '/webhooks',
      linkText: 'Open webhooks',
      allowed: can(role, PAGE_PERMISSIONS['/webhooks']),
    });
  }
  if (alerts.keysExpiringSoon > 0) {
    items.push({
      key: 'keys',
      text: `${plural(alerts.keysExpiringSoon, `${environment} API key`)} expire${alerts.keysExpiringSoon === 1 ? 's' : ''} within ${KEY_EXPIRY_WARNING_DAYS} days.`,
      href: '/keys',
      linkText: 'Roll keys',
      allowed: can(role, PAGE_PERMISSIONS['/keys']),
    });
  }
  if (items.length === 0) return null;
  return (
    <Notice tone="warning" title="Needs attention">
      <ul className="space-y-1" data-testid="overview-alerts">
        {items.map((item) => (
          <li key={item.key} data-alert={item.key}>
            {item.text}{' '}
            {item.allowed ? (
              <Link href={item.href} className={linkClass}>
                {item.linkText}
              </Link>
            ) : null}
          </li>
        ))}
      </ul>
    </Notice>
  );
}

export function Volume({ volume, environment }: { volume: MonthVolume; environment: 'test' | 'live' }) {
  const paid = volume.byCurrency.reduce((sum, row) => sum + row.count, 0);
  return (
    <Card title="Paid this month">
      {volume.byCurrency.length === 0 ? (
        <p className="text-sm text-slate-600" data-testid="volume-none">
          No {environment} invoice paid this month yet.
        </p>
      ) : (
        <>
          <dl className="space-y-2" data-testid="volume">
            {volume.byCurrency.map((row) => (
              <div
                key={row.currency}
                data-currency={row.currency}
                className="flex flex-wrap items-baseline justify-between gap-x-4"
              >
                <dt className="text-sm text-slate-600">{plural(row.count, 'invoice')}</dt>
                <dd className="text-xl font-semibold tabular-nums" data-field="received">
                  {formatMoney(row.received, row.currency)}
                </dd>
              </div>
            ))}
          </dl>
          {volume.byFiat.length > 0 ? (
            <dl className="mt-4 space-y-1 border-t border-slate-100 pt-3 text-sm" data-testid="volume-fiat">
              {volume.byFiat.map((row) => (
                <div
                  key={row.priceCurrency}
                  data-currency={row.priceCurrency}
                  className="flex flex-wrap items-baseline justify-between gap-x-4"
                >
                  <dt className="text-slate-600">
                    Priced in {row.priceCurrency} ({plural(row.count, 'invoice')})
                  </dt>
                  <dd className="font-semibold tabular-nums" data-field="amount">
                    {formatFiat(formatPrice(row.amount, row.priceCurrency), row.priceCurrency as PriceCurrency)}
                  </dd>
                </div>
              ))}
            </dl>
          ) : null}
          <p className="mt-3 text-xs text-slate-600">
            {plural(paid, 'invoice')} paid, summed per currency as received.
            {volume.byFiat.length > 0 && volume.unpricedCount > 0
              ? ` ${plural(volume.unpricedCount, 'was', 'were')} priced in crypto and ha${volume.unpricedCount === 1 ? 's' : 've'} no fiat value.`
              : ''}
          </p>
        </>
      )}
    </Card>
  );
}

export function StatusCounts({
  counts,
  environment,
  monthStart,
}: {
  counts: Record<InvoiceStatus, number>;
  environment: 'test' | 'live';
  monthStart: string;
}) {
  return (
    <Card title="Invoices created this month">
      <dl className="grid grid-cols-2 gap-3 sm:grid-cols-3" data-testid="status-counts">
        {INVOICE_STATUSES.map((status) => (
          <div key={status} data-status={status} className="rounded-md bg-slate-50 p-3">
            <dt>
              <StatusBadge status={status} />
            </dt>
            <dd className="mt-1 text-xl font-semibold tabular-nums">
              <Link
                href={`/invoices?env=${environment}&status=${status}&from=${monthStart}`}
                className="text-slate-900 hover:underline"
                aria-label={`${counts[status]} ${status} (list them)`}
              >
                {counts[status]}
              </Link>
            </dd>
          </div>
        ))}
      </dl>
    </Card>
  );
}

export function LatestInvoices({
  invoices,
  environment,
}: {
  invoices: InvoiceResource[];
  environment: 'test' | 'live';
}) {
  return (
    <Card title="Latest invoices">
      {invoices.length === 0 ? (
        <p className="text-sm text-slate-600">No {environment} invoices yet.</p>
      ) : (
        <DataTable
          testId="latest-invoices"
          columns={[
            { label: 'Invoice' },
            { label: 'Amount', align: 'right' },
            { label: 'Status' },
            { label: 'Created' },
          ]}
        >
          {invoices.map((invoice) => (
            <tr key={invoice.id} className="relative cursor-pointer hover:bg-slate-50 focus-within:bg-indigo-50">
              <Td label="Invoice" className="font-mono text-xs">
                <Link
                  href={`/invoices/${invoice.id}`}
                  className="break-all text-indigo-700 underline after:absolute after:inset-0 after:content-['']"
                >
                  {invoice.id}
                </Link>
                {invoice.description ? (
                  <span className="block font-sans text-slate-600">{invoice.description}</span>
                ) : null}
              </Td>
              <Td label="Amount" className="whitespace-nowrap text-right tabular-nums">
                {formatMoney(invoice.amount, invoice.currency)}
              </Td>
              <Td label="Status">
                <StatusBadge status={invoice.status} />
              </Td>
              <Td label="Created">
                <LocalTime value={invoice.created_at} />
              </Td>
            </tr>
          ))}
        </DataTable>
      )}
      <p className="mt-3 text-sm">
        <Link href={`/invoices?env=${environment}`} className="font-semibold text-indigo-700 underline">
          All {environment} invoices
        </Link>
      </p>
    </Card>
  );
}

/** The setup steps, ticked from what exists; the card goes away once every step is done. */
export function GetStarted({ progress, apiAccess }: { progress: SetupProgress; apiAccess: boolean }) {
  const steps: Array<{ done: boolean; content: React.ReactNode }> = [
    {
      done: apiAccess,
      content: (
        <>
          Pick a plan with API access in{' '}
          <Link href="/billing" className="text-indigo-700 underline">
            Billing
          </Link>
          .
        </>
      ),
    },
    {
      done: progress.testKeyUsed,
      content: (
        <>
          Create a test key in{' '}
          <Link href="/keys" className="text-indigo-700 underline">
            API keys
          </Link>{' '}
          and call <code className="font-mono">GET /v1/me</code> with it in the{' '}
          <code className="font-mono">X-API-Key</code> header.
        </>
      ),
    },
    {
      done: progress.testInvoicePaid,
      content: (
        <>
          Create test invoices (with the API or{' '}
          <Link href="/invoices/new" className="text-indigo-700 underline">
            New invoice
          </Link>
          ), then simulate their payment from{' '}
          <Link href="/invoices" className="text-indigo-700 underline">
            Invoices
          </Link>
          .
        </>
      ),
    },
    {
      done: progress.webhookEndpoint,
      content: (
        <>
          Add a{' '}
          <Link href="/webhooks" className="text-indigo-700 underline">
            webhook endpoint
          </Link>{' '}
          to hear about payments.
        </>
      ),
    },
    {
      done: progress.wallet,
      content: (
        <>
          Add{' '}
          <Link href="/wallets" className="text-indigo-700 underline">
            wallets
          </Link>{' '}
          before creating live invoices.
        </>
      ),
    },
  ];
  const done = steps.filter((step) => step.done).length;
  if (done === steps.length) return null;
  return (
    <Card title="Get started">
      <p className="mb-3 text-sm text-slate-600" data-testid="get-started-progress">
        {done} of {steps.length} done
      </p>
      <ol className="space-y-2 text-sm" data-testid="get-started">
        {steps.map((step, i) => (
          <li key={i} className="flex gap-3" data-done={step.done}>
            <span
              aria-hidden="true"
              className={
                step.done
                  ? 'mt-0.5 flex h-5 w-5 flex-none items-center justify-center rounded-full bg-green-600 text-xs text-white'
                  : 'mt-0.5 flex h-5 w-5 flex-none items-center justify-center rounded-full ring-1 ring-slate-400 text-xs text-slate-600'
              }
            >
              {step.done ? '✓' : i + 1}
            </span>
            <span className={step.done ? 'text-slate-600 line-through decoration-slate-400' : undefined}>
              <span className="sr-only">{step.done ? 'Done: ' : 'To do: '}</span>
              {step.content}
            </span>
          </li>
        ))}
      </ol>
    </Card>
  );
}
