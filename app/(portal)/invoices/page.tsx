import type { Metadata } from 'next';
import Link from 'next/link';
import { CopyButton } from '@/components/copy-button';
import { LocalTime } from '@/components/local-time';
import { buttonClass, Card, cx, DataTable, Notice, PageHeader, StatusBadge, Td } from '@/components/ui';
import { filterSearchParams, hasFilters, parseInvoiceFilters, type InvoiceFilters } from '@/lib/invoices/filters';
import { formatCurrencyAmount, formatMoney } from '@/lib/invoices/money';
import { filteredTotals, listFilteredInvoices, type CurrencyTotal } from '@/lib/invoices/portal-list';
import { InvoiceId, type InvoiceResource } from '@/lib/invoices/schemas';
import { requirePage } from '@/lib/portal/context';
import { can } from '@/lib/teams/roles';
import { formatFiat } from '@/lib/rates/format';
import { FilterBar } from './filter-bar';

export const metadata: Metadata = { title: 'Invoices' };

const PAGE_SIZE = 20;

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

function one(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value || undefined;
}

/**
 * Pages are keyset cursors. To go back, the address carries the trail of cursors that led here (`after`,
 * comma-separated, oldest first): Previous drops the last one, Next appends one. Filters ride along.
 */
function href(path: string, params: { env: string; filters?: InvoiceFilters; trail?: string[] }): string {
  const search = new URLSearchParams({ env: params.env });
  if (params.filters) for (const [name, value] of filterSearchParams(params.filters)) search.set(name, value);
  if (params.trail && params.trail.length > 0) search.set('after', params.trail.join(','));
  return `${path}?${search.toString()}`;
}

export default async function InvoicesPage({ searchParams }: { searchParams: SearchParams }) {
  const { workspace, role } = await requirePage('/invoices');
  const params = await searchParams;
  const environment = one(params.env) === 'live' ? 'live' : 'test';
  const trail = (one(params.after) ?? '').split(',').filter(Boolean);
  const tenant = { workspaceId: workspace.id, environment } as const;
  const parsed = parseInvoiceFilters(params);
  const rawValues = Object.fromEntries(
    ['q', 'status', 'network', 'currency', 'from', 'to', 'min', 'max'].map((name) => [name, one(params[name])]),
  );

  let invoices: InvoiceResource[] = [];
  let nextCursor: string | null = null;
  let totals: CurrencyTotal[] = [];
  let error: string | null = null;
  const filters: InvoiceFilters = parsed.success ? parsed.data : {};
  if (!parsed.success) {
    error = parsed.error.issues.map((issue) => issue.message).join(' · ');
  } else if (!trail.every((cursor) => InvoiceId.safeParse(cursor).success)) {
    error = 'The page cursor in the address is not valid.';
  } else {
    const now = new Date();
    const [page, sums] = await Promise.all([
      listFilteredInvoices(tenant, filters, { after: trail.at(-1) ?? null, limit: PAGE_SIZE }, now),
      filteredTotals(tenant, filters, now),
    ]);
    if (!page.cursorFound)
      error = 'The page cursor (starting_after) does not name an invoice of this workspace and environment.';
    invoices = page.invoices;
    nextCursor = page.nextCursor;
    totals = sums;
  }
  const filtered = hasFilters(filters);
  const matching = totals.reduce((sum, total) => sum + total.count, 0);

  return (
    <>
      <PageHeader
        title="Invoices"
        description="Invoices of this workspace, created through the API or here, newest first."
      >
        {can(role, 'invoices.write_test') ? (
          <Link href="/invoices/new" className={buttonClass.primary}>
            New invoice
          </Link>
        ) : null}
      </PageHeader>
      <div className="space-y-4">
        <div className="flex flex-wrap items-center justify-between gap-3">
          <nav aria-label="Environment" className="inline-flex rounded-md ring-1 ring-slate-300">
            {(['test', 'live'] as const).map((env) => (
              <Link
                key={env}
                href={href('/invoices', { env, filters })}
                aria-current={env === environment ? 'page' : undefined}
                className={cx(
                  'px-4 py-2 text-sm font-medium first:rounded-l-md last:rounded-r-md',
                  env === environment ? 'bg-indigo-600 text-white' : 'bg-white text-slate-700',
                )}
              >
                {env === 'test' ? 'Test' : 'Live'}
              </Link>
            ))}
          </nav>
          {!error ? (
            <a
              href={href('/invoices/export', { env: environment, filters })}
              download
              className={buttonClass.secondary}
              data-testid="export-csv"
            >
              Export CSV{filtered ? ' (filtered)' : ''}
            </a>
          ) : null}
        </div>
        <FilterBar environment={environment} values={rawValues} />
        {environment === 'live' ? (
          <p className="text-sm">
            <Link href="/invoices/unmatched" className="font-semibold text-indigo-700 underline">
              Unmatched payments
            </Link>{' '}
            — transfers to your wallets that matched no invoice, to attach by hand.
          </p>
        ) : null}
        {error ? <Notice tone="error">{error}</Notice> : null}
        {!error ? <Totals totals={totals} environment={environment} filtered={filtered} matching={matching} /> : null}
        {!error ? (
          <Card>
            {invoices.length === 0 ? (
              <p className="text-sm text-slate-600" data-testid="invoices-empty">
                No {environment} invoices{filtered ? ' match these filters' : ''}.{' '}
                {filtered ? (
                  <Link
                    href={href('/invoices', { env: environment })}
                    className="font-semibold text-indigo-700 underline"
                  >
                    Clear filters
                  </Link>
                ) : null}
              </p>
            ) : (
              <DataTable
                testId="invoices-table"
                columns={[
                  { label: 'Invoice' },
                  { label: 'Amount', align: 'right' },
                  { label: 'Status' },
                  { label: 'Network' },
                  { label: 'Order id' },
                  { label: 'Created' },
                ]}
              >
                {invoices.map((invoice) => (
                  // The invoice link stretches over the whole row (after:absolute), so a click anywhere opens it;
                  // keyboard users reach the same link; the copy button sits above it.
                  <tr
                    key={invoice.id}
                    className="relative cursor-pointer hover:bg-slate-50 focus-within:bg-indigo-50"
                    data-invoice={invoice.id}
                  >
                    <Td label="Invoice" className="font-mono text-xs">
                      <span className="inline-flex flex-wrap items-center gap-2">
                        <Link
                          href={`/invoices/${invoice.id}`}
                          className="break-all text-indigo-700 underline after:absolute after:inset-0 after:content-['']"
                        >
                          {invoice.id}
                        </Link>
                        <span className="relative z-10">
                          <CopyButton value={invoice.id} name={`invoice id ${invoice.id}`} size="sm" />
                        </span>
                      </span>
                    </Td>
                    <Td label="Amount" className="whitespace-nowrap text-right tabular-nums">
                      {formatMoney(invoice.amount, invoice.currency)}
                      {invoice.price_amount !== null && invoice.price_currency !== null ? (
                        <span className="block text-xs text-slate-600">
                          {formatFiat(invoice.price_amount, invoice.price_currency)} at a locked rate
                        </span>
                      ) : null}
                    </Td>
                    <Td label="Status">
                      <StatusBadge status={invoice.status} />
                    </Td>
                    <Td label="Network">{invoice.network}</Td>
                    <Td label="Order id" className="break-all font-mono text-xs">
                      {invoice.order_id ?? '—'}
                    </Td>
                    <Td label="Created">
                      <LocalTime value={invoice.created_at} />
                    </Td>
                  </tr>
                ))}
              </DataTable>
            )}
            <nav aria-label="Pages" className="mt-4 flex flex-wrap gap-3 text-sm">
              {trail.length > 0 ? (
                <Link
                  href={href('/invoices', { env: environment, filters, trail: trail.slice(0, -1) })}
                  className="font-semibold text-indigo-700 underline"
                >
                  Previous page
                </Link>
              ) : null}
              {nextCursor ? (
                <Link
                  href={href('/invoices', { env: environment, filters, trail: [...trail, nextCursor] })}
                  className="font-semibold text-indigo-700 underline"
                >
                  Next page
                </Link>
              ) : null}
            </nav>
          </Card>
        ) : null}
      </div>
    </>
  );
}

/** Totals of every invoice the filters match (all pages), per currency: what the CSV export sums to. */
function Totals({
  totals,
  environment,
  filtered,
  matching,
}: {
  totals: CurrencyTotal[];
  environment: string;
  filtered: boolean;
  matching: number;
}) {
  return (
    <section
      aria-labelledby="totals-heading"
      className="rounded-lg bg-white p-4 shadow-sm ring-1 ring-slate-200"
      data-testid="invoice-totals"
    >
      <h2 id="totals-heading" className="text-sm font-semibold">
        <span data-testid="invoice-count">{matching}</span> {environment} invoice{matching === 1 ? '' : 's'}
        {filtered ? ' match these filters' : ' in all'}
      </h2>
      {totals.length > 0 ? (
        <dl className="mt-2 grid grid-cols-1 gap-x-8 gap-y-2 text-sm sm:grid-cols-2 lg:grid-cols-4">
          {totals.map((total) => (
            <div key={total.currency} data-currency={total.currency} className="min-w-0">
              <dt className="font-medium">
                {total.currency} · {total.count} invoice{total.count === 1 ? '' : 's'}
              </dt>
              <dd className="tabular-nums text-slate-700">
                Invoiced{' '}
                <span data-total="amount">{formatCurrencyAmount(total.amount, total.currency, { group: true })}</span>
              </dd>
              <dd className="tabular-nums text-slate-700">
                Received{' '}
                <span data-total="amount_received">
                  {formatCurrencyAmount(total.amountReceived, total.currency, { group: true })}
                </span>{' '}
                ({total.paidCount} paid)
              </dd>
            </div>
          ))}
        </dl>
      ) : null}
    </section>
  );
}
