import type { Metadata } from 'next';
import { DailyChart } from '@/components/daily-chart';
import { Card, DataTable, EnvironmentBadge, PageHeader, StatusBadge, Td } from '@/components/ui';
import { UsageBar } from '@/components/usage-bar';
import { planLimits } from '@/lib/plans';
import { requirePage } from '@/lib/portal/context';
import { monthPeriod } from '@/lib/usage/period';
import { dailyRequestCounts, monthlyRequestCount, requestCountsByKey } from '@/lib/usage/usage';

export const metadata: Metadata = { title: 'Usage' };

export default async function UsagePage() {
  const { workspace } = await requirePage('/usage');
  const now = new Date();
  const plan = planLimits(workspace.plan);
  const [used, days, byKey] = await Promise.all([
    monthlyRequestCount(workspace.id, now),
    dailyRequestCounts(workspace.id, now),
    requestCountsByKey(workspace.id, now),
  ]);
  return (
    <>
      <PageHeader
        title="Usage"
        description={`${monthPeriod(now)} (UTC). Requests that fail authentication or the plan check are not counted.`}
      />
      <div className="space-y-6">
        <Card title="Requests this month">
          <p className="mb-3 text-3xl font-bold" data-testid="monthly-requests">
            {used.toLocaleString('en-US')}
          </p>
          <UsageBar used={used} limit={plan.monthlyLimit} label={`Monthly allowance of the ${plan.name} plan`} />
        </Card>
        <Card title="Requests per day">
          <DailyChart days={days} />
        </Card>
        <Card title="Requests per key">
          {byKey.length === 0 ? (
            <p className="text-sm text-slate-600">No keys yet.</p>
          ) : (
            <DataTable
              testId="usage-by-key"
              columns={[
                { label: 'Key' },
                { label: 'Prefix' },
                { label: 'Environment' },
                { label: 'Status' },
                { label: 'Requests this month', align: 'right' },
              ]}
            >
              {byKey.map((key) => (
                <tr key={key.keyId}>
                  <Td label="Key" className="break-words font-medium">
                    {key.label}
                  </Td>
                  <Td label="Prefix" className="font-mono text-xs">
                    {key.prefix}…
                  </Td>
                  <Td label="Environment">
                    <EnvironmentBadge environment={key.environment} />
                  </Td>
                  <Td label="Status">
                    <StatusBadge status={key.revoked ? 'revoked' : 'active'} />
                  </Td>
                  <Td label="Requests this month" className="text-right tabular-nums">
                    {key.count.toLocaleString('en-US')}
                  </Td>
                </tr>
              ))}
            </DataTable>
          )}
        </Card>
      </div>
    </>
  );
}
