import type { Metadata } from 'next';
import Link from 'next/link';
import { CopyButton } from '@/components/copy-button';
import { LocalTime } from '@/components/local-time';
import { buttonClass, Card, cx, DataTable, inputClass, Notice, PageHeader, StatusBadge, Td } from '@/components/ui';
import { isAppError } from '@/lib/errors';
import { findInvoicesByReference, listInvoices } from '@/lib/invoices/invoices';
import { InvoiceId, ListInvoicesQuery, type InvoiceResource } from '@/lib/invoices/schemas';
import { INVOICE_STATUSES } from '@/lib/invoices/state';
import { requirePage } from '@/lib/portal/context';
import { can } from '@/lib/teams/roles';
import { formatFiat } from '@/lib/rates/format';

export const metadata: Metadata = { title: 'Invoices' };

const PAGE_SIZE = 20;

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

function one(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value || undefined;
}

/**
 * Pages are keyset cursors (the API's starting_after). To go back, the address carries the trail of cursors
 * that led here (`after`, comma-separated, oldest first): Previous drops the last one, Next appends one.
 */
function href(params: { env: string; status?: string; trail?: string[] }): string {
  const search = new URLSearchParams({ env: params.env });
  if (params.status) search.set('status', params.status);
  if (params.trail && params.trail.length > 0) search.set('after', params.trail.join(','));
  return `/invoices?${search.toString()}`;
}

export default async function InvoicesPage({ searchParams }: { searchParams: SearchParams }) {
  const { workspace, role } = await requirePage('/invoices');
  const params = await searchParams;
  const environment = one(params.env) === 'live' ? 'live' : 'test';
  const status = one(params.status);
  const q = one(params.q)?.trim();
  const trail = (one(params.after) ?? '').split(',').filter(Boolean);
  const scope = { workspaceId: workspace.id, environment } as const;

  let invoices: InvoiceResource[] = [];
  let nextCursor: string | null = null;
  let error: string | null = null;
  if (q) {
    if (q.length > 128) error = 'Search by an invoice id or an order id (at most 128 characters).';
    else invoices = await findInvoicesByReference(scope, q);
  } else {
    const query = ListInvoicesQuery.safeParse({ limit: PAGE_SIZE, status, starting_after: trail.at(-1) });
    if (!query.success || !trail.every((cursor) => InvoiceId.safeParse(cursor).success)) {
      error = 'The status filter or page cursor in the address is not valid.';
    } else {
      try {
        const list = await listInvoices(scope, query.data);
        invoices = list.data;
        nextCursor = list.has_more ? list.next_cursor : null;
      } catch (e) {
        if (!isAppError(e)) throw e;
        error = e.message;
      }
    }
  }

  return (
    <>
      <PageHeader title="Invoices" description="Invoices of this workspace, created through the API or here, newest first.">
        {can(role, 'invoices.write_test') ? (
          <Link href="/invoices/new" className={buttonClass.primary}>
            New invoice
          </Link>
        ) : null}
      </PageHeader>
      <div className="space-y-4">
        <nav aria-label="Environment" className="inline-flex rounded-md ring-1 ring-slate-300">
          {(['test', 'live'] as const).map((env) => (
            <Link
              key={env}
              href={href({ env, status })}
              aria-current={env === environment ? 'page' : undefined}
              className={cx('px-4 py-2 text-sm font-medium first:rounded-l-md last:rounded-r-md', env === environment ? 'bg-indigo-600 text-white' : 'bg-white text-slate-700')}
            >
              {env === 'test' ? 'Test' : 'Live'}
            </Link>
          ))}
        </nav>
        <div className="flex flex-wrap items-end gap-x-6 gap-y-3">
          <form method="get" action="/invoices" role="search" aria-label="Find an invoice" className="flex min-w-0 flex-wrap items-end gap-2">
            <input type="hidden" name="env" value={environment} />
            <div className="min-w-0">
              <label htmlFor="invoice-search" className="block text-sm font-medium">
                Invoice id or order id
              </label>
              <input id="invoice-search" name="q" type="search" defaultValue={q ?? ''} maxLength={128} autoComplete="off" className={`mt-1 ${inputClass} w-64 max-w-full font-mono`} />
            </div>
            <button type="submit" className={buttonClass.secondary}>
              Search
            </button>
          </form>
          <form method="get" action="/invoices" className="flex flex-wrap items-end gap-2">
            <input type="hidden" name="env" value={environment} />
            <div>
              <label htmlFor="status-filter" className="block text-sm font-medium">
                Status
              </label>
              <select id="status-filter" name="status" defaultValue={status ?? ''} className="mt-1 rounded-md bg-white px-3 py-2 text-sm ring-1 ring-slate-300">
                <option value="">All</option>
                {INVOICE_STATUSES.map((s) => (
                  <option key={s} value={s}>
                    {s}
                  </option>
                ))}
              </select>
            </div>
            <button type="submit" className={buttonClass.secondary}>
              Filter
            </button>
          </form>
        </div>
        {q ? (
          <p className="text-sm" role="status">
            {invoices.length === 0 ? 'No' : invoices.length} {environment} invoice{invoices.length === 1 ? '' : 's'} with id or order id “<span className="break-all">{q}</span>”.{' '}
            <Link href={href({ env: environment })} className="font-semibold text-indigo-700 underline">
              Clear search
            </Link>
          </p>
        ) : null}
        {environment === 'live' ? (
          <p className="text-sm">
            <Link href="/invoices/unmatched" className="font-semibold text-indigo-700 underline">
              Unmatched payments
            </Link>{' '}
            — transfers to your wallets that matched no invoice, to attach by hand.
          </p>
        ) : null}
        {error ? <Notice tone="error">{error}</Notice> : null}
        {!error ? (
          <Card>
            {invoices.length === 0 ? (
              <p className="text-sm text-slate-600" data-testid="invoices-empty">
                No {environment} invoices{status ? ` with status ${status}` : ''}{q ? ' match' : ''}.
              </p>
            ) : (
              <DataTable testId="invoices-table" columns={[{ label: 'Invoice' }, { label: 'Amount' }, { label: 'Status' }, { label: 'Network' }, { label: 'Order id' }, { label: 'Created' }]}>
                {invoices.map((invoice) => (
                  <tr key={invoice.id}>
                    <Td label="Invoice" className="font-mono text-xs">
                      <span className="inline-flex flex-wrap items-center gap-2">
                        <Link href={`/invoices/${invoice.id}`} className="break-all text-indigo-700 underline">
                          {invoice.id}
                        </Link>
                        <CopyButton value={invoice.id} name={`invoice id ${invoice.id}`} size="sm" />
                      </span>
                    </Td>
                    <Td label="Amount" className="whitespace-nowrap tabular-nums">
                      {invoice.amount} {invoice.currency}
                      {invoice.price_amount !== null && invoice.price_currency !== null ? (
                        <span className="block text-xs text-slate-600">{formatFiat(invoice.price_amount, invoice.price_currency)} at a locked rate</span>
                      ) : null}
                    </Td>
                    <Td label="Status"><StatusBadge status={invoice.status} /></Td>
                    <Td label="Network">{invoice.network}</Td>
                    <Td label="Order id" className="break-all font-mono text-xs">{invoice.order_id ?? '—'}</Td>
                    <Td label="Created"><LocalTime value={invoice.created_at} /></Td>
                  </tr>
                ))}
              </DataTable>
            )}
            {!q ? (
              <nav aria-label="Pages" className="mt-4 flex flex-wrap gap-3 text-sm">
                {trail.length > 0 ? (
                  <Link href={href({ env: environment, status, trail: trail.slice(0, -1) })} className="font-semibold text-indigo-700 underline">
                    Previous page
                  </Link>
                ) : null}
                {nextCursor ? (
                  <Link href={href({ env: environment, status, trail: [...trail, nextCursor] })} className="font-semibold text-indigo-700 underline">
                    Next page
                  </Link>
                ) : null}
              </nav>
            ) : null}
          </Card>
        ) : null}
      </div>
    </>
  );
}
