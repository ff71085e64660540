import type { Metadata } from 'next';
import { LocalTime } from '@/components/local-time';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { Badge, Card, DataTable, EnvironmentBadge, Notice, PageHeader } from '@/components/ui';
import { isAppError } from '@/lib/errors';
import { requirePage } from '@/lib/portal/context';
import { can, forEnvironment } from '@/lib/teams/roles';
import { listDeliveries, type DeliveryView } from '@/lib/webhooks/deliveries';
import { getWebhookEndpoint, type WebhookEndpointView } from '@/lib/webhooks/endpoints';
import { EndpointControls } from './endpoint-controls';
import { ResendButton } from './resend-button';

export const metadata: Metadata = { title: 'Webhook endpoint' };

const STATUS_TONES = { pending: 'blue', succeeded: 'green', failed: 'red' } as const;

/** The endpoint, scoped by the session's workspace: another workspace's id is a 404, like a nonexistent one. */
async function loadEndpoint(workspaceId: string, id: string): Promise<WebhookEndpointView> {
  try {
    return await getWebhookEndpoint(workspaceId, id);
  } catch (error) {
    if (isAppError(error) && error.code === 'webhook_endpoint_not_found') notFound();
    throw error;
  }
}

function DeliveryRow({ delivery, endpointId, mayChange }: { delivery: DeliveryView; endpointId: string; mayChange: boolean }) {
  return (
    <tr data-delivery-id={delivery.id} data-event-type={delivery.eventType}>
      <td className="px-3 py-2 align-top">
        <p className="font-medium">{delivery.eventType}</p>
        <p className="font-mono text-xs text-slate-600">{delivery.eventId}</p>
      </td>
      <td className="px-3 py-2 align-top">
        <Badge tone={STATUS_TONES[delivery.status]}>{delivery.status}</Badge>
      </td>
      <td className="px-3 py-2 text-right align-top">{delivery.attempts}</td>
      <td className="px-3 py-2 align-top">{delivery.lastStatusCode ?? '—'}</td>
      <td className="whitespace-nowrap px-3 py-2 text-right align-top">{delivery.lastDurationMs === null ? '—' : `${delivery.lastDurationMs} ms`}</td>
      <td className="min-w-48 max-w-sm px-3 py-2 align-top">
        {delivery.lastError ? <p className="text-xs text-red-700">{delivery.lastError}</p> : null}
        {delivery.lastResponseBody ? (
          <details>
            <summary className="cursor-pointer text-xs text-indigo-700">Response body (first 2 KiB)</summary>
            {/* React escapes the text: a receiver's HTML is shown, never rendered. */}
            <pre tabIndex={0} className="mt-1 max-h-48 overflow-auto whitespace-pre-wrap break-all rounded bg-slate-50 p-2 font-mono text-xs ring-1 ring-slate-200">
              {delivery.lastResponseBody}
            </pre>
          </details>
        ) : !delivery.lastError ? (
          <span className="text-slate-600">—</span>
        ) : null}
      </td>
      <td className="whitespace-nowrap px-3 py-2 align-top">{delivery.status === 'pending' ? <LocalTime value={delivery.nextAttemptAt} /> : '—'}</td>
      <td className="px-3 py-2 align-top">
        {mayChange ? <ResendButton endpointId={endpointId} deliveryId={delivery.id} eventType={delivery.eventType} /> : null}
      </td>
    </tr>
  );
}

export default async function WebhookEndpointPage({ params }: { params: Promise<{ id: string }> }) {
  const { workspace, role } = await requirePage('/webhooks/[id]');
  const { id } = await params;
  const endpoint = await loadEndpoint(workspace.id, id);
  const deliveries = await listDeliveries(workspace.id, endpoint.id);
  const enabled = endpoint.status === 'enabled';
  const mayChange = can(role, forEnvironment('webhooks', endpoint.environment));
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
            <dt className="font-medium">Created</dt>
            <dd><LocalTime value={endpoint.createdAt} /></dd>
          </dl>
          {endpoint.previousSecretExpiresAt ? (
            <div className="mt-4">
              <Notice tone="info">The previous signing secret also signs deliveries until <LocalTime value={endpoint.previousSecretExpiresAt} />.</Notice>
            </div>
          ) : null}
          {mayChange ? (
            <div className="mt-4">
              <EndpointControls endpointId={endpoint.id} url={endpoint.url} enabled={enabled} />
            </div>
          ) : (
            <p className="mt-4 text-sm text-slate-600">Changing {endpoint.environment} endpoints is for Owners and Admins{endpoint.environment === 'test' ? ' and Developers' : ''}.</p>
          )}
        </Card>
        <Card title="Delivery log">
          <div className="mb-3 flex flex-wrap items-center justify-between gap-2 text-sm text-slate-600">
            <p>The latest 50 deliveries, newest first. Resend makes one attempt now with the same webhook-id.</p>
            <Link href={`/webhooks/${endpoint.id}`} className="font-medium text-indigo-700 underline hover:text-indigo-500">
              Refresh
            </Link>
          </div>
          {deliveries.length === 0 ? (
            <p className="text-sm text-slate-600">No deliveries yet. Create an invoice in this environment, or send a test event.</p>
          ) : (
            <DataTable
              testId="deliveries-table"
              columns={[
                { label: 'Event' },
                { label: 'Status' },
                { label: 'Attempts', align: 'right' },
                { label: 'HTTP status' },
                { label: 'Duration', align: 'right' },
                { label: 'Response' },
                { label: 'Next retry' },
                { label: 'Actions' },
              ]}
            >
              {deliveries.map((delivery) => (
                <DeliveryRow key={delivery.id} delivery={delivery} endpointId={endpoint.id} mayChange={mayChange} />
              ))}
            </DataTable>
          )}
        </Card>
      </div>
    </>
  );
}
