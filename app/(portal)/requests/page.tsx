import type { Metadata } from 'next';
import { LocalTime } from '@/components/local-time';
import Link from 'next/link';
import { buttonClass, Card, cx, DataTable, inputClass, PageHeader, Td } from '@/components/ui';
import { listApiKeys } from '@/lib/keys/keys';
import { requirePage } from '@/lib/portal/context';
import { listRequests } from '@/lib/request-log/queries';
import { REQUEST_LOG_RETENTION_DAYS } from '@/lib/request-log/types';

export const metadata: Metadata = { title: 'Request log' };

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

function one(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value || undefined;
}

const STATUS_CLASSES = ['2xx', '4xx', '5xx'] as const;
type StatusClass = (typeof STATUS_CLASSES)[number];

function statusTone(status: number): string {
  if (status >= 500) return 'text-red-700';
  if (status >= 400) return 'text-amber-800';
  return 'text-green-800';
}

/** The last REQUEST_LOG_RETENTION_DAYS days of /v1 requests of this workspace, per environment, with filters (key, status class, path). */
export default async function RequestLogPage({ searchParams }: { searchParams: SearchParams }) {
  const { workspace } = await requirePage('/requests');
  const params = await searchParams;
  const environment = one(params.env) === 'live' ? 'live' : 'test';
  const keyParam = Number(one(params.key));
  const keyId = Number.isSafeInteger(keyParam) && keyParam > 0 ? keyParam : null;
  const statusParam = one(params.status);
  const statusClass = (STATUS_CLASSES as readonly string[]).includes(statusParam ?? '')
    ? (statusParam as StatusClass)
    : null;
  const path = one(params.path)?.slice(0, 200) ?? null;
  const before = one(params.before) ?? null;

  const [keys, page] = await Promise.all([
    listApiKeys(workspace.id),
    listRequests(workspace.id, { environment, keyId, statusClass, path, before, limit: 50 }),
  ]);
  const envKeys = keys.filter((key) => key.environment === environment);
  const link = (extra: Record<string, string | null>) => {
    const search = new URLSearchParams({ env: environment });
    if (keyId) search.set('key', String(keyId));
    if (statusClass) search.set('status', statusClass);
    if (path) search.set('path', path);
    for (const [name, value] of Object.entries(extra)) {
      if (value === null) search.delete(name);
      else search.set(name, value);
    }
    return `/requests?${search.toString()}`;
  };

  return (
    <>
      <PageHeader
        title="Request log"
        description={`Every /v1 request made with this workspace's keys in the last ${REQUEST_LOG_RETENTION_DAYS} days, newest first. Entries appear within a second; no secrets, headers or bodies are kept.`}
      />
      <div className="space-y-4">
        <nav aria-label="Environment" className="inline-flex rounded-md ring-1 ring-slate-300">
          {(['test', 'live'] as const).map((env) => (
            <Link
              key={env}
              href={`/requests?env=${env}`}
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
        <Card>
          <form
            method="get"
            action="/requests"
            className="grid gap-3 sm:grid-cols-4 sm:items-end"
            aria-label="Filter requests"
          >
            <input type="hidden" name="env" value={environment} />
            <div>
              <label htmlFor="filter-key" className="block text-sm font-medium">
                Key
              </label>
              <select
                id="filter-key"
                name="key"
                defaultValue={keyId ? String(keyId) : ''}
                className={`mt-1 ${inputClass}`}
              >
                <option value="">All keys</option>
                {envKeys.map((key) => (
                  <option key={key.id} value={key.id}>
                    {key.label} ({key.prefix}…)
                  </option>
                ))}
              </select>
            </div>
            <div>
              <label htmlFor="filter-status" className="block text-sm font-medium">
                Status
              </label>
              <select
                id="filter-status"
                name="status"
                defaultValue={statusClass ?? ''}
                className={`mt-1 ${inputClass}`}
              >
                <option value="">Any</option>
                {STATUS_CLASSES.map((value) => (
                  <option key={value} value={value}>
                    {value}
                  </option>
                ))}
              </select>
            </div>
            <div>
              <label htmlFor="filter-path" className="block text-sm font-medium">
                Path starts with
              </label>
              <input
                id="filter-path"
                name="path"
                type="text"
                defaultValue={path ?? ''}
                placeholder="/v1/invoices"
                className={`mt-1 ${inputClass}`}
              />
            </div>
            <button type="submit" className={buttonClass.primary}>
              Filter
            </button>
          </form>
        </Card>
        <Card>
          {page.rows.length === 0 ? (
            <p className="text-sm text-slate-600">No requests match.</p>
          ) : (
            <DataTable
              testId="request-log"
              columns={[
                { label: 'Time' },
                { label: 'Method' },
                { label: 'Path' },
                { label: 'Status' },
                { label: 'Duration', align: 'right' },
                { label: 'Key' },
                { label: 'Request id' },
              ]}
            >
              {page.rows.map((row) => (
                <tr key={row.id}>
                  <Td label="Time">
                    <LocalTime value={row.createdAt} />
                  </Td>
                  <Td label="Method" className="font-mono text-xs">
                    {row.method}
                  </Td>
                  <Td label="Path" className="max-w-xs truncate font-mono text-xs">
                    {row.path}
                  </Td>
                  <Td label="Status" className={cx('font-medium', statusTone(row.status))}>
                    {row.status}
                  </Td>
                  <Td label="Duration" className="whitespace-nowrap text-right">
                    {row.durationMs} ms
                  </Td>
                  <Td label="Key" className="whitespace-nowrap font-mono text-xs">
                    {row.keyPrefix}…
                  </Td>
                  <Td label="Request id" className="font-mono text-xs">
                    <Link href={`/requests/${encodeURIComponent(row.requestId)}`} className="text-indigo-700 underline">
                      {row.requestId}
                    </Link>
                  </Td>
                </tr>
              ))}
            </DataTable>
          )}
          {page.hasMore ? (
            <div className="mt-4">
              <Link href={link({ before: page.rows.at(-1)?.id ?? null })} className={buttonClass.secondary}>
                Older requests
              </Link>
            </div>
          ) : null}
        </Card>
      </div>
    </>
  );
}
