import type { Metadata } from 'next';
import { DailyChart } from '@/components/daily-chart';
import { Card, DataTable, EnvironmentBadge, PageHeader, StatusBadge } from '@/components/ui';
import { UsageBar } from '@/components/usage-bar';
import { planLimits } from '@/lib/plans';
import { requirePortalContext } from '@/lib/portal/context';
import { monthPeriod } from '@/lib/usage/period';
import { dailyRequestCounts, monthlyRequestCount, requestCountsByKey } from '@/lib/usage/usage';

export const metadata: Metadata = { title: 'Usage' };

export default async function UsagePage() {
  const { workspace } = await requirePortalContext();
  const now = new Date();
  const plan = planLimits(workspace.plan);
  const [used, days, byKey] = await Promise.all([
    monthlyRequestCount(workspace.id, now),
    dailyRequestCounts(workspace.id, now),
    requestCountsByKey(workspace.id, now),
  ]);
  return (
    <>
      <PageHeader title="Usage" description={`${monthPeriod(now)} (UTC). Requests that fail authentication or the plan check are not counted.`} />
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
            <DataTable testId="usage-by-key" columns={[{ label: 'Key' }, { label: 'Prefix' }, { label: 'Environment' }, { label: 'Status' }, { label: 'Requests this month', align: 'right' }]}>
              {byKey.map((key) => (
                <tr key={key.keyId}>
                  <td className="px-3 py-2 font-medium">{key.label}</td>
                  <td className="px-3 py-2 font-mono text-xs">{key.prefix}…</td>
                  <td className="px-3 py-2"><EnvironmentBadge environment={key.environment} /></td>
                  <td className="px-3 py-2"><StatusBadge status={key.revoked ? 'revoked' : 'active'} /></td>
                  <td className="px-3 py-2 text-right tabular-nums">{key.count.toLocaleString('en-US')}</td>
                </tr>
              ))}
            </DataTable>
          )}
        </Card>
      </div>
    </>
  );
}
