import type { Metadata } from 'next';
import { LocalTime } from '@/components/local-time';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { Badge, buttonClass, Card, DataTable, EnvironmentBadge, Notice, PageHeader, Td } from '@/components/ui';
import { isAppError } from '@/lib/errors';
import { requirePage } from '@/lib/portal/context';
import { can, forEnvironment } from '@/lib/teams/roles';
import {
  DELIVERIES_PAGE_SIZE,
  endpointHealthById,
  listDeliveries,
  type DeliveryCursor,
  type DeliveryView,
} from '@/lib/webhooks/deliveries';
import { deliveryDisplayStatus, type DeliveryDisplayStatus } from '@/lib/webhooks/delivery-status';
import { maxDeliveryAttempts } from '@/lib/webhooks/schedule';
import { getWebhookEndpoint, type WebhookEndpointView } from '@/lib/webhooks/endpoints';
import { EndpointControls } from './endpoint-controls';
import { HealthBadge, HealthSummary } from '../endpoint-health';
import { ResendButton } from './resend-button';

export const metadata: Metadata = { title: 'Webhook endpoint' };

const STATUS_TONES = { pending: 'gray', retrying: 'amber', failed: 'red', delivered: 'green' } as const;

/** The endpoint, scoped by the session's workspace: another workspace's id is a 404, like a nonexistent one. */
async function loadEndpoint(workspaceId: string, id: string): Promise<WebhookEndpointView> {
  try {
    return await getWebhookEndpoint(workspaceId, id);
  } catch (error) {
    if (isAppError(error) && error.code === 'webhook_endpoint_not_found') notFound();
    throw error;
  }
}

/** The line under a delivery's status: what happened and what happens next. */
function StatusDetail({
  delivery,
  status,
  attemptLimit,
}: {
  delivery: DeliveryView;
  status: DeliveryDisplayStatus;
  attemptLimit: number;
}) {
  const plural = (n: number) => `${n} ${n === 1 ? 'attempt' : 'attempts'}`;
  switch (status) {
    case 'retrying':
      return (
        <>
          Attempt {delivery.attempts} of {attemptLimit} failed; next{' '}
          <LocalTime value={delivery.nextAttemptAt} fallback="soon" />
        </>
      );
    case 'failed':
      return <>Gave up after {plural(delivery.attempts)}</>;
    case 'delivered':
      return <>After {plural(delivery.attempts)}</>;
    case 'pending':
      return delivery.attempts === 0 ? <>Not tried yet</> : <>Resend queued</>;
  }
}

function DeliveryRow({
  delivery,
  endpointId,
  mayChange,
  attemptLimit,
}: {
  delivery: DeliveryView;
  endpointId: string;
  mayChange: boolean;
  attemptLimit: number;
}) {
  const status = deliveryDisplayStatus(delivery);
  return (
    <tr data-delivery-id={delivery.id} data-event-type={delivery.eventType} data-status={status}>
      <Td label="Event" className="align-top">
        <span className="block w-full min-w-0 sm:w-auto">
          <span className="block font-medium">{delivery.eventType}</span>
          <span className="block break-all font-mono text-xs text-slate-600">{delivery.eventId}</span>
        </span>
      </Td>
      <Td label="Status" className="align-top">
        <span className="block w-full min-w-0 sm:w-auto">
          <Badge tone={STATUS_TONES[status]}>{status}</Badge>
          <span className="mt-1 block text-xs text-slate-700">
            <StatusDetail delivery={delivery} status={status} attemptLimit={attemptLimit} />
          </span>
        </span>
      </Td>
      <Td label="Last attempt" className="align-top">
        {delivery.lastAttemptAt ? (
          <span className="block w-full min-w-0 text-xs sm:w-auto">
            <span className="block">
              {delivery.lastStatusCode === null ? 'No answer' : `HTTP ${delivery.lastStatusCode}`}
              {delivery.lastDurationMs === null ? '' : ` · ${delivery.lastDurationMs} ms`} ·{' '}
              <LocalTime value={delivery.lastAttemptAt} />
            </span>
            {delivery.lastError ? (
              <span className="mt-1 block break-words text-red-700">{delivery.lastError}</span>
            ) : null}
            {delivery.lastResponseBody ? (
              <details className="mt-1">
                <summary className="cursor-pointer text-indigo-700">Response body (first 2 KiB)</summary>
                {/* React escapes the text: a receiver's HTML is shown, never rendered. */}
                <pre
                  tabIndex={0}
                  className="mt-1 max-h-48 max-w-md overflow-auto whitespace-pre-wrap break-all rounded bg-slate-50 p-2 font-mono ring-1 ring-slate-200"
                >
                  {delivery.lastResponseBody}
                </pre>
              </details>
            ) : null}
          </span>
        ) : (
          <span className="text-slate-600">—</span>
        )}
      </Td>
      <Td label="" className="align-top">
        {mayChange ? (
          <ResendButton endpointId={endpointId} deliveryId={delivery.id} eventType={delivery.eventType} />
        ) : null}
      </Td>
    </tr>
  );
}

function PageLink({ href, children, rel }: { href: string | null; children: string; rel: 'prev' | 'next' }) {
  return href ? (
    <Link href={href} rel={rel} className={buttonClass.secondary}>
      {children}
    </Link>
  ) : (
    <span aria-disabled="true" className={`${buttonClass.secondary} cursor-not-allowed opacity-50`}>
      {children}
    </span>
  );
}

/** The log's paging, kept in the URL: ?after=<delivery id> (older) or ?before=<delivery id> (newer). */
function cursorOf(params: Record<string, string | string[] | undefined>): DeliveryCursor {
  const single = (value: string | string[] | undefined) => (typeof value === 'string' ? value : undefined);
  const after = single(params.after);
  const before = single(params.before);
  return after ? { after } : before ? { before } : null;
}

export default async function WebhookEndpointPage({
  params,
  searchParams,
}: {
  params: Promise<{ id: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { workspace, role } = await requirePage('/webhooks/[id]');
  const { id } = await params;
  const endpoint = await loadEndpoint(workspace.id, id);
  const cursor = cursorOf(await searchParams);
  const [page, health] = await Promise.all([
    listDeliveries(workspace.id, endpoint.id, cursor),
    endpointHealthById(workspace.id, [endpoint]).then((byId) => byId.get(endpoint.id)!),
  ]);
  const enabled = endpoint.status === 'enabled';
  const mayChange = can(role, forEnvironment('webhooks', endpoint.environment));
  const attemptLimit = maxDeliveryAttempts();
  const base = `/webhooks/${endpoint.id}`;
  return (
    <>
      <p className="mb-2 text-sm">
        <Link href="/webhooks" className="text-indigo-700 underline hover:text-indigo-500">
          ← Webhooks
        </Link>
      </p>
      <PageHeader title="Webhook endpoint" description={<span className="break-all font-mono">{endpoint.url}</span>} />
      <div className="space-y-6">
        <Card title="Endpoint">
          <dl className="grid gap-x-6 gap-y-2 text-sm sm:grid-cols-[max-content_1fr]">
            <dt className="font-medium">Environment</dt>
            <dd>
              <EnvironmentBadge environment={endpoint.environment} />
            </dd>
            <dt className="font-medium">Description</dt>
            <dd>{endpoint.description || '—'}</dd>
            <dt className="font-medium">Events</dt>
            <dd>{endpoint.eventTypes.length === 0 ? 'All events' : endpoint.eventTypes.join(', ')}</dd>
            <dt className="font-medium">Status</dt>
            <dd data-testid="endpoint-status">
              <Badge tone={enabled ? 'green' : 'red'}>{endpoint.status}</Badge>
              {endpoint.disabledReason ? <span className="ml-2 text-slate-700">{endpoint.disabledReason}</span> : null}
            </dd>
            <dt className="font-medium">Health</dt>
            <dd className="space-y-1">
              <HealthBadge health={health} />
              <HealthSummary health={health} />
            </dd>
            <dt className="font-medium">Created</dt>
            <dd>
              <LocalTime value={endpoint.createdAt} />
            </dd>
          </dl>
          {endpoint.previousSecretExpiresAt ? (
            <div className="mt-4">
              <Notice tone="info">
                The previous signing secret also signs deliveries until{' '}
                <LocalTime value={endpoint.previousSecretExpiresAt} />.
              </Notice>
            </div>
          ) : null}
          {mayChange ? (
            <div className="mt-4">
              <EndpointControls endpointId={endpoint.id} url={endpoint.url} enabled={enabled} />
            </div>
          ) : (
            <p className="mt-4 text-sm text-slate-600">
              Changing {endpoint.environment} endpoints is for Owners and Admins
              {endpoint.environment === 'test' ? ' and Developers' : ''}.
            </p>
          )}
        </Card>
        <Card title="Delivery log">
          <div className="mb-3 flex flex-wrap items-center justify-between gap-2 text-sm text-slate-600">
            <p>
              Newest first, {DELIVERIES_PAGE_SIZE} a page. A failed attempt is retried {attemptLimit - 1} times over
              about three days; Resend makes one attempt now with the same webhook-id.
            </p>
            <Link
              href={cursor ? `${base}?${new URLSearchParams(Object.entries(cursor)).toString()}` : base}
              className="font-medium text-indigo-700 underline hover:text-indigo-500"
            >
              Refresh
            </Link>
          </div>
          {page.deliveries.length === 0 ? (
            <p className="text-sm text-slate-600">
              {cursor
                ? 'No deliveries on this page.'
                : 'No deliveries yet. Create an invoice in this environment, or send a test event.'}
            </p>
          ) : (
            <DataTable
              testId="deliveries-table"
              columns={[
                { label: 'Event' },
                { label: 'Status' },
                { label: 'Last attempt' },
                { label: 'Actions', hidden: true },
              ]}
            >
              {page.deliveries.map((delivery) => (
                <DeliveryRow
                  key={delivery.id}
                  delivery={delivery}
                  endpointId={endpoint.id}
                  mayChange={mayChange}
                  attemptLimit={attemptLimit}
                />
              ))}
            </DataTable>
          )}
          {cursor || page.older ? (
            <nav aria-label="Delivery log pages" className="mt-4 flex flex-wrap items-center gap-2">
              <PageLink rel="prev" href={page.newer ? `${base}?before=${page.newer.before}` : null}>
                ← Newer
              </PageLink>
              <PageLink rel="next" href={page.older ? `${base}?after=${page.older.after}` : null}>
                Older →
              </PageLink>
              {cursor ? (
                <Link href={base} className="text-sm font-medium text-indigo-700 underline hover:text-indigo-500">
                  Newest
                </Link>
              ) : null}
            </nav>
          ) : null}
        </Card>
      </div>
    </>
  );
}
