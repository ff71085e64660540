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
        description: 'The API and the portal, for building and testing an integration.',
      };
    case 'Business':
      return {
        name,
        apiAccess: true,
        monthlyLimit: config.PLAN_BUSINESS_MONTHLY_LIMIT,
        rateLimitPerSecond: config.PLAN_BUSINESS_RATE_LIMIT,
        description: 'The API and the portal at production volume.',
      };
    case 'Trial':
      return {
        name,
        apiAccess: false,
        monthlyLimit: 0,
        rateLimitPerSecond: 0,
        description: 'Explore the portal: keys, wallets and invoices created in the portal. No API access.',
      };
    case 'Merchant':
      return {
        name,
        apiAccess: false,
        monthlyLimit: 0,
        rateLimitPerSecond: 0,
        description: 'Invoices created in the portal (New invoice), paid to your wallets. No API access.',
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

/**
 * What a plan allows, in one line, built from the plan table above (so no figure is ever written twice):
 * the portal's billing and overview pages show it.
 */
export function planAllowance(plan: PlanLimits): string {
  if (!plan.apiAccess) return 'No API access (every /v1 request answers 403); invoices from the portal';
  return `API access: ${plan.monthlyLimit.toLocaleString('en-US')} requests per month, ${plan.rateLimitPerSecond} requests per second per key; invoices from the API and the portal`;
}

/** Plans a workspace owner may choose in the portal (SELF_SERVE_PLANS); the operator sets any plan. */
export function selfServePlans(): PlanName[] {
  return PLAN_NAMES.filter((name) => env().SELF_SERVE_PLANS.includes(name));
}

export function isSelfServePlan(name: PlanName): boolean {
  return selfServePlans().includes(name);
}
