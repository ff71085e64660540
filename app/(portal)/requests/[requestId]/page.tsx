import type { Metadata } from 'next';
import { LocalTime } from '@/components/local-time';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { Card, EnvironmentBadge, PageHeader } from '@/components/ui';
import { keyTargetText } from '@/lib/audit/targets';
import { listApiKeys } from '@/lib/keys/keys';
import { requirePage } from '@/lib/portal/context';
import { getRequest } from '@/lib/request-log/queries';

export const metadata: Metadata = { title: 'Request' };

/** One logged request, by the Request-Id a client received (only this workspace's). */
export default async function RequestDetailPage({ params }: { params: Promise<{ requestId: string }> }) {
  const { workspace } = await requirePage('/requests/[requestId]');
  const { requestId } = await params;
  const row = /^req_[A-Za-z0-9]{1,64}$/.test(requestId) ? await getRequest(workspace.id, requestId) : null;
  if (!row) notFound();
  // The key as the keys table shows it: label and prefix (never its internal id).
  const key = row.keyId ? (await listApiKeys(workspace.id)).find((each) => each.id === row.keyId) : undefined;
  const fields: [string, React.ReactNode][] = [
    ['Time', <LocalTime key="t" value={row.createdAt} />],
    ['Environment', <EnvironmentBadge key="env" environment={row.environment} />],
    ['Method', <code key="m">{row.method}</code>],
    [
      'Path',
      <code key="p" className="break-all">
        {row.path}
      </code>,
    ],
    ['Status', row.status],
    ['Duration', `${row.durationMs} ms`],
    [
      'Key',
      <span key="k" className="break-words">
        {keyTargetText(key?.label ?? null, row.keyPrefix)}
      </span>,
    ],
    [
      'Idempotency-Key',
      row.idempotencyKey ? (
        <code key="i" className="break-all">
          {row.idempotencyKey}
        </code>
      ) : (
        '—'
      ),
    ],
    ['Client address', row.ip ?? '—'],
  ];
  return (
    <>
      <PageHeader
        title={`Request ${row.requestId}`}
        description="What the request log keeps of one /v1 request: never the key's secret, the headers or the body."
      />
      <Card>
        <dl className="grid gap-x-6 gap-y-3 text-sm sm:grid-cols-[max-content_1fr]" data-testid="request-detail">
          {fields.map(([label, value]) => (
            <div key={label} className="contents">
              <dt className="font-medium text-slate-600">{label}</dt>
              <dd>{value}</dd>
            </div>
          ))}
        </dl>
        <p className="mt-6 text-sm">
          <Link href={`/requests?env=${row.environment}`} className="text-indigo-700 underline">
            Back to the request log
          </Link>
        </p>
      </Card>
    </>
  );
}
