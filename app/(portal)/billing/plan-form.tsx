'use client';

import { useRouter } from 'next/navigation';
import { startTransition, useActionState, useEffect, useRef, useState } from 'react';
import { Dialog } from '@/components/dialog';
import { useAnnounce } from '@/components/status';
import { buttonClass, cx } from '@/components/ui';
import type { PlanName } from '@/lib/plans';
import { changePlan } from './actions';

export interface PlanOption {
  name: PlanName;
  apiAccess: boolean;
  description: string;
  /** What the plan allows, from lib/plans.ts planAllowance. */
  allowance: string;
}

/**
 * Plan switch. The highlight follows the selection (the current plan is labelled "current"); switching from a
 * plan with API access to one without asks first, because every API key stops working at once.
 */
export function PlanForm({ plans, current }: { plans: PlanOption[]; current: PlanName }) {
  const [state, dispatch, pending] = useActionState(changePlan, null);
  const [selected, setSelected] = useState<PlanName>(current);
  const [confirming, setConfirming] = useState(false);
  const form = useRef<HTMLFormElement>(null);
  const announce = useAnnounce();
  const router = useRouter();
  const currentPlan = plans.find((p) => p.name === current);
  const selectedPlan = plans.find((p) => p.name === selected);
  const cutsApi = Boolean(currentPlan?.apiAccess && selectedPlan && !selectedPlan.apiAccess);

  // The selection follows the current plan when the server's answer changes it (adjusting state during render).
  const [shownCurrent, setShownCurrent] = useState<PlanName>(current);
  if (shownCurrent !== current) {
    setShownCurrent(current);
    setSelected(current);
  }
  useEffect(() => {
    if (!state) return;
    announce(
      state.ok ? 'success' : 'error',
      state.ok ? `Your workspace is now on the ${state.data.plan} plan.` : state.error,
    );
    router.refresh();
  }, [state, announce, router]);

  const submit = () => {
    if (!form.current) return;
    const formData = new FormData(form.current);
    startTransition(() => dispatch(formData));
  };

  return (
    <form
      ref={form}
      className="space-y-4"
      aria-label="Change plan"
      onSubmit={(event) => {
        event.preventDefault();
        if (cutsApi) setConfirming(true);
        else submit();
      }}
    >
      <fieldset>
        <legend className="text-sm font-medium">Plan</legend>
        <div className="mt-2 grid gap-3 sm:grid-cols-2">
          {plans.map((plan) => (
            <label
              key={plan.name}
              className={cx(
                'flex cursor-pointer gap-3 rounded-lg p-4 ring-1',
                plan.name === selected ? 'bg-indigo-50 ring-2 ring-indigo-500' : 'bg-white ring-slate-200',
              )}
            >
              <input
                type="radio"
                name="plan"
                value={plan.name}
                checked={plan.name === selected}
                onChange={() => setSelected(plan.name)}
                className="mt-1"
              />
              <span className="min-w-0">
                <span className="block font-semibold">
                  {plan.name}
                  {plan.name === current ? (
                    <span className="ml-2 text-xs font-normal text-indigo-700">(current)</span>
                  ) : null}
                </span>
                <span className="block text-sm text-slate-600">{plan.description}</span>
                <span className="mt-1 block text-sm">{plan.allowance}</span>
              </span>
            </label>
          ))}
        </div>
      </fieldset>
      <button type="submit" className={buttonClass.primary} disabled={pending || selected === current}>
        {pending ? 'Switching…' : 'Switch plan'}
      </button>
      <Dialog
        open={confirming}
        onClose={() => setConfirming(false)}
        title={`Switch to ${selected}, without API access?`}
        description="Every API key of this workspace stops working at once: /v1 requests answer 403 until you switch back to a plan with API access. Keys, invoices and wallets are kept."
      >
        <div className="flex flex-wrap justify-end gap-2">
          <button type="button" className={buttonClass.secondary} onClick={() => setConfirming(false)}>
            Keep {current}
          </button>
          <button
            type="button"
            className={buttonClass.danger}
            onClick={() => {
              setConfirming(false);
              submit();
            }}
          >
            Switch to {selected}
          </button>
        </div>
      </Dialog>
    </form>
  );
}
