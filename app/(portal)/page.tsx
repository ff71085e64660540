import type { Metadata } from 'next';
import Link from 'next/link';
import { Card, Notice, PageHeader } from '@/components/ui';
import { UsageBar } from '@/components/usage-bar';
import { LocalTime } from '@/components/local-time';
import { timeAgo } from '@/components/expiry';
import { RECENT_CHANGES_DAYS, recentSecurityChanges } from '@/lib/audit/recent-changes';
import { planAllowance, planLimits } from '@/lib/plans';
import { requirePage } from '@/lib/portal/context';
import { can } from '@/lib/teams/roles';
import { monthlyRequestCount } from '@/lib/usage/usage';

export const metadata: Metadata = { title: 'Overview' };

export default async function OverviewPage() {
  const { workspace, role } = await requirePage('/');
  const plan = planLimits(workspace.plan);
  const [used, changes] = await Promise.all([monthlyRequestCount(workspace.id), recentSecurityChanges(workspace.id)]);
  const now = new Date();
  return (
    <>
      <PageHeader title="Overview" description={`Workspace ${workspace.name}`} />
      <div className="space-y-6">
        {!plan.apiAccess ? (
          <Notice tone="warning" title={`Your ${plan.name} plan has no API access`}>
            <p>
              API keys can be created, but every /v1 request answers 403 until the workspace is on the Developer or Business plan.{' '}
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
              <dd><LocalTime value={workspace.createdAt} /></dd>
            </dl>
          </Card>
          <Card title="This month">
            <UsageBar used={used} limit={plan.monthlyLimit} />
            <p className="mt-3 text-sm text-slate-600">
              Counted per UTC calendar month. <Link href="/usage" className="font-semibold text-indigo-700 underline">See usage details</Link>
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
                    {change.summary} <span className="font-normal text-slate-600">{timeAgo(change.createdAt, now)}</span>
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
            Not you? Change your password on the <Link href="/account" className="font-semibold text-indigo-700 underline">Account</Link> page (it
            signs out every other session){can(role, 'audit.read') ? (
              <>
                , then check the <Link href="/audit" className="font-semibold text-indigo-700 underline">audit log</Link>
              </>
            ) : null}
            .
          </p>
        </Card>
        {/* Setting the workspace up is the Owner's: the steps link to pages other roles may not open. */}
        {role === 'owner' ? (
        <Card title="Get started">
          <ol className="list-decimal space-y-1 pl-5 text-sm">
            <li>
              Pick a plan with API access in <Link href="/billing" className="text-indigo-700 underline">Billing</Link>.
            </li>
            <li>
              Create a test key in <Link href="/keys" className="text-indigo-700 underline">API keys</Link> and call <code className="font-mono">GET /v1/me</code> with it in the <code className="font-mono">X-API-Key</code> header.
            </li>
            <li>
              Create test invoices (with the API or <Link href="/invoices/new" className="text-indigo-700 underline">New invoice</Link>), then simulate their payment from <Link href="/invoices" className="text-indigo-700 underline">Invoices</Link>.
            </li>
            <li>
              Add <Link href="/wallets" className="text-indigo-700 underline">wallets</Link> before creating live invoices.
            </li>
          </ol>
        </Card>
        ) : null}
      </div>
    </>
  );
}
