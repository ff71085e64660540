import type { Metadata } from 'next';
import Link from 'next/link';
import { DailyChart } from '@/components/daily-chart';
import { Card, cx, Notice, PageHeader } from '@/components/ui';
import { UsageBar } from '@/components/usage-bar';
import { LocalTime } from '@/components/local-time';
import { timeAgo } from '@/components/expiry';
import { RECENT_CHANGES_DAYS, recentSecurityChanges } from '@/lib/audit/recent-changes';
import { listFilteredInvoices } from '@/lib/invoices/portal-list';
import { planAllowance, planLimits } from '@/lib/plans';
import { requirePage } from '@/lib/portal/context';
import { dailyPayments, monthStatusCounts, monthVolume, overviewAlerts, setupProgress } from '@/lib/portal/overview';
import { can } from '@/lib/teams/roles';
import { startOfUtcMonth } from '@/lib/usage/period';
import { monthlyRequestCount } from '@/lib/usage/usage';
import { Alerts, GetStarted, LatestInvoices, StatusCounts, Volume } from './overview-cards';

export const metadata: Metadata = { title: 'Overview' };

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

export default async function OverviewPage({ searchParams }: { searchParams: SearchParams }) {
  const { workspace, role } = await requirePage('/');
  const plan = planLimits(workspace.plan);
  const now = new Date();
  const requested = [(await searchParams).env].flat()[0];
  const progress = await setupProgress(workspace.id);
  // The money a merchant runs on is live: the Overview opens on live once there is any, else on test.
  const environment = requested === 'live' || requested === 'test' ? requested : progress.liveInvoice ? 'live' : 'test';
  const tenant = { workspaceId: workspace.id, environment } as const;
  const [used, changes, volume, counts, days, latest, alerts] = await Promise.all([
    monthlyRequestCount(workspace.id),
    recentSecurityChanges(workspace.id),
    monthVolume(tenant, now),
    monthStatusCounts(tenant, now),
    dailyPayments(tenant, now),
    listFilteredInvoices(tenant, {}, { after: null, limit: 5 }, now),
    overviewAlerts(tenant, now),
  ]);
  const month = now.toLocaleString('en-US', { month: 'long', year: 'numeric', timeZone: 'UTC' });
  return (
    <>
      <PageHeader title="Overview" description={`Workspace ${workspace.name} · ${month} (UTC)`}>
        <nav aria-label="Environment" className="inline-flex rounded-md ring-1 ring-slate-300">
          {(['test', 'live'] as const).map((env) => (
            <Link
              key={env}
              href={`/?env=${env}`}
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
      </PageHeader>
      <div className="space-y-6">
        {!plan.apiAccess ? (
          <Notice tone="warning" title={`Your ${plan.name} plan has no API access`}>
            <p>
              API keys can be created, but every /v1 request answers 403 until the workspace is on the Developer or
              Business plan.{' '}
              {can(role, 'plan.change') ? (
                <>
                  <Link href="/billing" className="font-semibold underline">
                    Choose a plan in Billing
                  </Link>
                  .
                </>
              ) : (
                'An Owner of the workspace chooses the plan.'
              )}
            </p>
          </Notice>
        ) : null}
        <Alerts alerts={alerts} environment={environment} role={role} />
        {/* Setting the workspace up is the Owner's: the steps link to pages other roles may not open. */}
        {role === 'owner' ? <GetStarted progress={progress} apiAccess={plan.apiAccess} /> : null}
        <div className="grid gap-6 md:grid-cols-2">
          <Volume volume={volume} environment={environment} />
          <StatusCounts
            counts={counts}
            environment={environment}
            monthStart={startOfUtcMonth(now).toISOString().slice(0, 10)}
          />
        </div>
        <Card title="Payments per day">
          <DailyChart days={days} noun={{ one: 'paid invoice', many: 'paid invoices' }} testId="payments-chart" />
          <p className="mt-2 text-xs text-slate-600">
            {environment === 'live' ? 'Live' : 'Test'} invoices paid on each UTC day of {month}.
          </p>
        </Card>
        <LatestInvoices invoices={latest.invoices} environment={environment} />
        <div className="grid gap-6 md:grid-cols-2">
          <Card title="Workspace">
            <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm">
              <dt className="text-slate-600">Name</dt>
              <dd>{workspace.name}</dd>
              <dt className="text-slate-600">ID</dt>
              <dd className="break-all font-mono text-xs">{workspace.id}</dd>
              <dt className="text-slate-600">Plan</dt>
              <dd data-testid="plan-name">{plan.name}</dd>
              <dt className="text-slate-600">Allows</dt>
              <dd data-testid="plan-allowance">{planAllowance(plan)}</dd>
              <dt className="text-slate-600">Created</dt>
              <dd>
                <LocalTime value={workspace.createdAt} />
              </dd>
            </dl>
          </Card>
          <Card title="API requests this month">
            <UsageBar used={used} limit={plan.monthlyLimit} />
            <p className="mt-3 text-sm text-slate-600">
              Counted per UTC calendar month.{' '}
              <Link href="/usage" className="font-semibold text-indigo-700 underline">
                See usage details
              </Link>
            </p>
          </Card>
        </div>
        <Card title="Recent security changes">
          {changes.length === 0 ? (
            <p className="text-sm text-slate-600" data-testid="security-changes-none">
              No payout wallet, live key or two-factor change in the last {RECENT_CHANGES_DAYS} days.
            </p>
          ) : (
            <ul className="divide-y divide-slate-100 text-sm" data-testid="security-changes">
              {changes.map((change) => (
                <li key={change.id} className="py-2">
                  <p className="font-medium">
                    {change.summary}{' '}
                    <span className="font-normal text-slate-600">{timeAgo(change.createdAt, now)}</span>
                  </p>
                  <p className="break-words text-xs text-slate-600">
                    by {change.actorLabel}
                    {change.ip ? ` from ${change.ip}` : ''} · <LocalTime value={change.createdAt} />
                  </p>
                </li>
              ))}
            </ul>
          )}
          <p className="mt-3 text-sm text-slate-600">
            Not you? Change your password on the{' '}
            <Link href="/account" className="font-semibold text-indigo-700 underline">
              Account
            </Link>{' '}
            page (it signs out every other session)
            {can(role, 'audit.read') ? (
              <>
                , then check the{' '}
                <Link href="/audit" className="font-semibold text-indigo-700 underline">
                  audit log
                </Link>
              </>
            ) : null}
            .
          </p>
        </Card>
      </div>
    </>
  );
}
