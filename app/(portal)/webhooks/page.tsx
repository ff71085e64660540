import type { Metadata } from 'next';
import { LocalTime } from '@/components/local-time';
import Link from 'next/link';
import { Badge, Card, DataTable, EnvironmentBadge, Notice, PageHeader, Td } from '@/components/ui';
import { requirePage } from '@/lib/portal/context';
import { can } from '@/lib/teams/roles';
import { endpointHealthById } from '@/lib/webhooks/deliveries';
import { listWebhookEndpoints } from '@/lib/webhooks/endpoints';
import { CreateEndpointForm } from './create-endpoint-form';
import { HealthBadge, HealthSummary } from './endpoint-health';

export const metadata: Metadata = { title: 'Webhooks' };

export default async function WebhooksPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { workspace, role } = await requirePage('/webhooks');
  const [endpoints, params] = await Promise.all([listWebhookEndpoints(workspace.id), searchParams]);
  const health = await endpointHealthById(workspace.id, endpoints);
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
              columns={[
                { label: 'Endpoint' },
                { label: 'Events' },
                { label: 'Status' },
                { label: 'Health' },
                { label: 'Actions', hidden: true },
              ]}
            >
              {endpoints.map((endpoint) => {
                const endpointHealth = health.get(endpoint.id)!;
                return (
                  <tr key={endpoint.id} data-endpoint-id={endpoint.id}>
                    <Td label="Endpoint" className="align-top">
                      <span className="block w-full min-w-0 max-w-xs sm:w-auto">
                        <span className="block break-all font-mono text-xs">{endpoint.url}</span>
                        {endpoint.description ? (
                          <span className="mt-1 block text-slate-600">{endpoint.description}</span>
                        ) : null}
                        <span className="mt-1 flex flex-wrap items-center gap-2 text-xs text-slate-600">
                          <EnvironmentBadge environment={endpoint.environment} />
                          <span>
                            Added <LocalTime value={endpoint.createdAt} />
                          </span>
                        </span>
                      </span>
                    </Td>
                    <Td label="Events" className="align-top">
                      {endpoint.eventTypes.length === 0 ? (
                        <span className="text-slate-600">All events</span>
                      ) : (
                        <span className="flex flex-wrap gap-1">
                          {endpoint.eventTypes.map((type) => (
                            <Badge key={type} tone="violet">
                              {type}
                            </Badge>
                          ))}
                        </span>
                      )}
                    </Td>
                    <Td label="Status" className="align-top">
                      <span className="block w-full min-w-0 sm:w-auto">
                        <Badge tone={endpoint.status === 'enabled' ? 'green' : 'red'}>{endpoint.status}</Badge>
                        {endpoint.disabledReason ? (
                          <span className="mt-1 block text-xs text-slate-600">{endpoint.disabledReason}</span>
                        ) : null}
                      </span>
                    </Td>
                    <Td label="Health" className="align-top">
                      <div className="w-full min-w-0 space-y-1 sm:w-auto">
                        <HealthBadge health={endpointHealth} />
                        <HealthSummary health={endpointHealth} />
                      </div>
                    </Td>
                    <Td label="" className="whitespace-nowrap align-top">
                      {/* aria-label, not an sr-only span: an absolutely positioned span in a scrolled table widens the page. */}
                      <Link
                        href={`/webhooks/${endpoint.id}`}
                        aria-label={`Manage and delivery log: ${endpoint.url}`}
                        className="font-medium text-indigo-700 underline hover:text-indigo-500"
                      >
                        Manage and delivery log
                      </Link>
                    </Td>
                  </tr>
                );
              })}
            </DataTable>
          )}
        </Card>
      </div>
    </>
  );
}
