import type { Metadata } from 'next';
import { Card, Notice, PageHeader } from '@/components/ui';
import { allPlans, planAllowance } from '@/lib/plans';
import { requirePortalContext } from '@/lib/portal/context';
import { PlanForm } from './plan-form';

export const metadata: Metadata = { title: 'Billing' };

export default async function BillingPage() {
  const { workspace } = await requirePortalContext();
  return (
    <>
      <PageHeader title="Billing" description={`Current plan: ${workspace.plan}`} />
      <div className="space-y-6">
        <Notice tone="info" title="No payment is taken">
          There is no payment provider: switching plans here is free and takes effect immediately, on the very next API request.
        </Notice>
        <Card title="Change plan">
          <PlanForm plans={allPlans().map((plan) => ({ ...plan, allowance: planAllowance(plan) }))} current={workspace.plan} />
        </Card>
      </div>
    </>
  );
}
