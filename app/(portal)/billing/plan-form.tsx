'use client';

import { useActionState } from 'react';
import { buttonClass, cx, Notice } from '@/components/ui';
import type { PlanName } from '@/lib/plans';
import { changePlan } from './actions';

export interface PlanOption {
  name: PlanName;
  apiAccess: boolean;
  monthlyLimit: number;
  rateLimitPerSecond: number;
  description: string;
}

export function PlanForm({ plans, current }: { plans: PlanOption[]; current: PlanName }) {
  const [state, action, pending] = useActionState(changePlan, null);
  return (
    <form action={action} className="space-y-4">
      {state && !state.ok ? <Notice tone="error">{state.error}</Notice> : null}
      {state?.ok ? <Notice tone="success">Your workspace is now on the {state.data.plan} plan.</Notice> : null}
      <fieldset>
        <legend className="text-sm font-medium">Plan</legend>
        <div className="mt-2 grid gap-3 sm:grid-cols-2">
          {plans.map((plan) => (
            <label
              key={plan.name}
              className={cx('flex cursor-pointer gap-3 rounded-lg p-4 ring-1', plan.name === current ? 'bg-indigo-50 ring-indigo-400' : 'bg-white ring-slate-200')}
            >
              <input type="radio" name="plan" value={plan.name} defaultChecked={plan.name === current} className="mt-1" />
              <span>
                <span className="block font-semibold">
                  {plan.name}
                  {plan.name === current ? <span className="ml-2 text-xs font-normal text-indigo-700">(current)</span> : null}
                </span>
                <span className="block text-sm text-slate-600">{plan.description}</span>
                <span className="mt-1 block text-sm">
                  {plan.apiAccess
                    ? `${plan.monthlyLimit.toLocaleString('en-US')} requests/month, ${plan.rateLimitPerSecond} requests/second`
                    : 'No API access'}
                </span>
              </span>
            </label>
          ))}
        </div>
      </fieldset>
      <button type="submit" className={buttonClass.primary} disabled={pending}>
        {pending ? 'Switching…' : 'Switch plan'}
      </button>
    </form>
  );
}
