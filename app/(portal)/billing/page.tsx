import type { Metadata } from 'next';
import { Card, Notice, PageHeader } from '@/components/ui';
import { allPlans, isSelfServePlan, planAllowance } from '@/lib/plans';
import { requirePage } from '@/lib/portal/context';
import { can } from '@/lib/teams/roles';
import { paymentTolerancePercent } from '@/lib/workspaces/payment-tolerance';
import { PlanForm } from './plan-form';
import { ToleranceForm } from './tolerance-form';

export const metadata: Metadata = { title: 'Billing' };

export default async function BillingPage() {
  const { workspace, role } = await requirePage('/billing');
  const selfServe = allPlans().filter((plan) => isSelfServePlan(plan.name));
  const byOperator = allPlans().filter((plan) => !isSelfServePlan(plan.name));
  return (
    <>
      <PageHeader title="Billing" description={`Current plan: ${workspace.plan}`} />
      <div className="space-y-6">
        <Notice tone="info" title="No payment is taken">
          There is no payment provider: switching to one of the plans below is free and takes effect immediately, on the
          very next API request.
        </Notice>
        <Card title="Change plan">
          {can(role, 'plan.change') ? (
            <PlanForm
              plans={selfServe.map((plan) => ({ ...plan, allowance: planAllowance(plan) }))}
              current={workspace.plan}
            />
          ) : (
            <p className="text-sm text-slate-600">Only an Owner of the workspace changes its plan.</p>
          )}
        </Card>
        <Card title="Payments">
          <ToleranceForm percent={await paymentTolerancePercent(workspace.id)} />
        </Card>
        {byOperator.length > 0 ? (
          <Card title="Plans set by the operator">
            <ul className="list-disc space-y-1 pl-5 text-sm">
              {byOperator.map((plan) => (
                <li key={plan.name}>
                  <span className="font-semibold">{plan.name}</span>: {plan.description} {planAllowance(plan)}
                </li>
              ))}
            </ul>
            <p className="mt-3 text-sm text-slate-600">
              These plans are not self-serve. To move to one, ask the operator of this service, quoting your workspace
              id <code className="rounded bg-slate-100 px-1">{workspace.id}</code>.
            </p>
          </Card>
        ) : null}
      </div>
    </>
  );
}
