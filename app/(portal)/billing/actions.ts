'use server';

import { revalidatePath } from 'next/cache';
import { z } from 'zod';
import { PLAN_NAMES } from '@/lib/plans';
import { withWorkspace } from '@/lib/portal/action';
import { portalActor } from '@/lib/portal/actor';
import { chooseSelfServePlan } from '@/lib/workspaces/workspaces';
import { PaymentTolerancePercent, setPaymentTolerancePercent } from '@/lib/workspaces/payment-tolerance';

// Any plan name is validated, but only the self-serve ones are applied (lib decides): a forged form naming
// Business is refused there and changes nothing.
export const changePlan = withWorkspace(
  { permission: 'plan.change' },
  z.object({ plan: z.enum(PLAN_NAMES, { error: 'Choose a plan' }) }),
  async (ctx, input) => {
    const workspace = await chooseSelfServePlan(ctx.workspace.id, input.plan, await portalActor(ctx));
    revalidatePath('/', 'layout');
    return { plan: workspace.plan };
  },
);

export const savePaymentTolerance = withWorkspace(
  { permission: 'payment_tolerance.change' },
  z.object({ percent: PaymentTolerancePercent }),
  async (ctx, input) => {
    const percent = await setPaymentTolerancePercent(ctx.workspace.id, input.percent, await portalActor(ctx));
    revalidatePath('/billing');
    return { percent };
  },
);
