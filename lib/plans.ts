import { env } from './env';

/** The plan table: which plans include the API, and each plan's monthly allowance and per-second limit. */
export const PLAN_NAMES = ['Trial', 'Developer', 'Business', 'Merchant'] as const;
export type PlanName = (typeof PLAN_NAMES)[number];

export interface PlanLimits {
  name: PlanName;
  apiAccess: boolean;
  monthlyLimit: number;
  rateLimitPerSecond: number;
  description: string;
}

export function planLimits(name: PlanName): PlanLimits {
  const config = env();
  switch (name) {
    case 'Developer':
      return {
        name,
        apiAccess: true,
        monthlyLimit: config.PLAN_DEVELOPER_MONTHLY_LIMIT,
        rateLimitPerSecond: config.PLAN_DEVELOPER_RATE_LIMIT,
        description: 'API access for building and testing an integration.',
      };
    case 'Business':
      return {
        name,
        apiAccess: true,
        monthlyLimit: config.PLAN_BUSINESS_MONTHLY_LIMIT,
        rateLimitPerSecond: config.PLAN_BUSINESS_RATE_LIMIT,
        description: 'API access at production volume.',
      };
    case 'Trial':
      return { name, apiAccess: false, monthlyLimit: 0, rateLimitPerSecond: 0, description: 'Explore the portal. No API access.' };
    case 'Merchant':
      return {
        name,
        apiAccess: false,
        monthlyLimit: 0,
        rateLimitPerSecond: 0,
        description: 'Invoices from the portal only. No API access.',
      };
  }
}

export function allPlans(): PlanLimits[] {
  return PLAN_NAMES.map(planLimits);
}

export function isPlanName(value: string): value is PlanName {
  return (PLAN_NAMES as readonly string[]).includes(value);
}

export function defaultPlan(): PlanName {
  return env().DEFAULT_PLAN;
}

export function planWithoutApiAccessMessage(name: PlanName): string {
  return `The ${name} plan does not include API access. Switch to the Developer or Business plan in the portal's billing page.`;
}

/** Plans a workspace owner may choose in the portal (SELF_SERVE_PLANS); the operator sets any plan. */
export function selfServePlans(): PlanName[] {
  return PLAN_NAMES.filter((name) => env().SELF_SERVE_PLANS.includes(name));
}

export function isSelfServePlan(name: PlanName): boolean {
  return selfServePlans().includes(name);
}
