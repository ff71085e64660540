import type { PlanLimits } from '../plans';
import { startOfNextUtcMonth, startOfUtcMonth } from '../usage/period';

/**
 * RateLimit-Policy and RateLimit header fields (IETF httpapi ratelimit-headers draft), one item per
 * policy: "per-second" for the key's rate limit and "monthly" for the workspace's allowance.
 */
export interface RateLimitState {
  plan: PlanLimits;
  monthlyRequests: number;
  /** Requests counted in the key's current one-second window; null when this request was not counted there. */
  secondUsed: number | null;
  secondWindowStart: Date | null;
  now: Date;
}

export function secondsUntilNextMonth(now: Date): number {
  return Math.max(1, Math.ceil((startOfNextUtcMonth(now).getTime() - now.getTime()) / 1000));
}

export function secondsUntilWindowEnds(windowStart: Date, now: Date): number {
  return Math.max(1, Math.ceil((windowStart.getTime() + 1000 - now.getTime()) / 1000));
}

export function rateLimitHeaders(state: RateLimitState): Record<string, string> {
  const { plan, now } = state;
  const monthSeconds = Math.round((startOfNextUtcMonth(now).getTime() - startOfUtcMonth(now).getTime()) / 1000);
  const policies = [`"per-second";q=${plan.rateLimitPerSecond};w=1`, `"monthly";q=${plan.monthlyLimit};w=${monthSeconds}`];
  const items: string[] = [];
  if (state.secondUsed !== null && state.secondWindowStart) {
    const remaining = Math.max(0, plan.rateLimitPerSecond - state.secondUsed);
    items.push(`"per-second";r=${remaining};t=${secondsUntilWindowEnds(state.secondWindowStart, now)}`);
  }
  items.push(`"monthly";r=${Math.max(0, plan.monthlyLimit - state.monthlyRequests)};t=${secondsUntilNextMonth(now)}`);
  return { 'RateLimit-Policy': policies.join(', '), RateLimit: items.join(', ') };
}
