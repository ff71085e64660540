import type { Metadata } from 'next';
import { LocalTime } from '@/components/local-time';
import Link from 'next/link';
import { Badge, Card, DataTable, EnvironmentBadge, Notice, PageHeader } from '@/components/ui';
import { requirePage } from '@/lib/portal/context';
import { can } from '@/lib/teams/roles';
import { listWebhookEndpoints } from '@/lib/webhooks/endpoints';
import { CreateEndpointForm } from './create-endpoint-form';

export const metadata: Metadata = { title: 'Webhooks' };

export default async function WebhooksPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { workspace, role } = await requirePage('/webhooks');
  const [endpoints, params] = await Promise.all([listWebhookEndpoints(workspace.id), searchParams]);
  return (
    <>
      <PageHeader
        title="Webhooks"
        description="Endpoints receive every invoice change as a signed event (Standard Webhooks). Deliveries are retried for about three days; receivers de-duplicate on the webhook-id header."
      />
      <div className="space-y-6">
        {params.deleted ? <Notice tone="success">The endpoint was deleted.</Notice> : null}
        {can(role, 'webhooks.manage_test') ? (
          <Card title="Add an endpoint">
            <CreateEndpointForm liveAllowed={can(role, 'webhooks.manage_live')} />
          </Card>
        ) : null}
        <Card title="Endpoints">
          {endpoints.length === 0 ? (
            <p className="text-sm text-slate-600">No endpoints yet.</p>
          ) : (
            <DataTable
              testId="endpoints-table"
              columns={[{ label: 'URL' }, { label: 'Environment' }, { label: 'Events' }, { label: 'Status' }, { label: 'Created' }, { label: 'Actions' }]}
            >
              {endpoints.map((endpoint) => (
                <tr key={endpoint.id} data-endpoint-id={endpoint.id}>
                  <td className="min-w-48 max-w-xs px-3 py-2">
                    <p className="break-all font-mono text-xs">{endpoint.url}</p>
                    {endpoint.description ? <p className="mt-1 text-slate-600">{endpoint.description}</p> : null}
                  </td>
                  <td className="px-3 py-2">
                    <EnvironmentBadge environment={endpoint.environment} />
                  </td>
                  <td className="px-3 py-2">
                    {endpoint.eventTypes.length === 0 ? (
                      <span className="text-slate-600">All events</span>
                    ) : (
                      <div className="flex flex-wrap gap-1">
                        {endpoint.eventTypes.map((type) => (
                          <Badge key={type} tone="violet">
                            {type}
                          </Badge>
                        ))}
                      </div>
                    )}
                  </td>
                  <td className="px-3 py-2">
                    <Badge tone={endpoint.status === 'enabled' ? 'green' : 'red'}>{endpoint.status}</Badge>
                    {endpoint.disabledReason ? <p className="mt-1 text-xs text-slate-600">{endpoint.disabledReason}</p> : null}
                  </td>
                  <td className="whitespace-nowrap px-3 py-2"><LocalTime value={endpoint.createdAt} /></td>
                  <td className="whitespace-nowrap px-3 py-2">
                    {/* aria-label, not an sr-only span: an absolutely positioned span in a scrolled table widens the page. */}
                    <Link
                      href={`/webhooks/${endpoint.id}`}
                      aria-label={`Manage and delivery log: ${endpoint.url}`}
                      className="font-medium text-indigo-700 underline hover:text-indigo-500"
                    >
                      Manage and delivery log
                    </Link>
                  </td>
                </tr>
              ))}
            </DataTable>
          )}
        </Card>
      </div>
    </>
  );
}
