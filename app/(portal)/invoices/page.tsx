import type { Metadata } from 'next';
import Link from 'next/link';
import { Card, cx, DataTable, EnvironmentBadge, formatDate, Notice, PageHeader, StatusBadge } from '@/components/ui';
import { isAppError } from '@/lib/errors';
import { listInvoices } from '@/lib/invoices/invoices';
import { ListInvoicesQuery } from '@/lib/invoices/schemas';
import { INVOICE_STATUSES } from '@/lib/invoices/state';
import { requirePortalContext } from '@/lib/portal/context';

export const metadata: Metadata = { title: 'Invoices' };

const PAGE_SIZE = 20;

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

function one(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value || undefined;
}

function href(params: { env: string; status?: string; after?: string }): string {
  const search = new URLSearchParams({ env: params.env });
  if (params.status) search.set('status', params.status);
  if (params.after) search.set('after', params.after);
  return `/invoices?${search.toString()}`;
}

export default async function InvoicesPage({ searchParams }: { searchParams: SearchParams }) {
  const { workspace } = await requirePortalContext();
  const params = await searchParams;
  const environment = one(params.env) === 'live' ? 'live' : 'test';
  const status = one(params.status);
  const after = one(params.after);

  const query = ListInvoicesQuery.safeParse({ limit: PAGE_SIZE, status, starting_after: after });
  let list: Awaited<ReturnType<typeof listInvoices>> | null = null;
  let error: string | null = null;
  if (!query.success) {
    error = 'The status filter or page cursor in the address is not valid.';
  } else {
    try {
      list = await listInvoices({ workspaceId: workspace.id, environment }, query.data);
    } catch (e) {
      if (!isAppError(e)) throw e;
      error = e.message;
    }
  }

  return (
    <>
      <PageHeader title="Invoices" description="Invoices created through the API with this workspace's keys, newest first." />
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
          <button type="submit" className="rounded-md bg-white px-3 py-2 text-sm font-semibold ring-1 ring-slate-300 hover:bg-slate-50">
            Filter
          </button>
        </form>
        {environment === 'live' ? (
          <p className="text-sm">
            <Link href="/invoices/unmatched" className="font-semibold text-indigo-700 underline">
              Unmatched payments
            </Link>{' '}
            — transfers to your wallets that matched no invoice, to attach by hand.
          </p>
        ) : null}
        {error ? <Notice tone="error">{error}</Notice> : null}
        {list ? (
          <Card>
            {list.data.length === 0 ? (
              <p className="text-sm text-slate-600" data-testid="invoices-empty">
                No {environment} invoices{status ? ` with status ${status}` : ''}.
              </p>
            ) : (
              <DataTable testId="invoices-table" columns={[{ label: 'Invoice' }, { label: 'Amount' }, { label: 'Network' }, { label: 'Status' }, { label: 'Created' }, { label: 'Environment' }]}>
                {list.data.map((invoice) => (
                  <tr key={invoice.id}>
                    <td className="px-3 py-2 font-mono text-xs">
                      <Link href={`/invoices/${invoice.id}`} className="text-indigo-700 underline">
                        {invoice.id}
                      </Link>
                    </td>
                    <td className="whitespace-nowrap px-3 py-2 tabular-nums">
                      {invoice.amount} {invoice.currency}
                    </td>
                    <td className="px-3 py-2">{invoice.network}</td>
                    <td className="px-3 py-2"><StatusBadge status={invoice.status} /></td>
                    <td className="whitespace-nowrap px-3 py-2">{formatDate(invoice.created_at)}</td>
                    <td className="px-3 py-2"><EnvironmentBadge environment={invoice.environment} /></td>
                  </tr>
                ))}
              </DataTable>
            )}
            <div className="mt-4 flex gap-3 text-sm">
              {after ? (
                <Link href={href({ env: environment, status })} className="font-semibold text-indigo-700 underline">
                  First page
                </Link>
              ) : null}
              {list.has_more && list.next_cursor ? (
                <Link href={href({ env: environment, status, after: list.next_cursor })} className="font-semibold text-indigo-700 underline">
                  Next page
                </Link>
              ) : null}
            </div>
          </Card>
        ) : null}
      </div>
    </>
  );
}
