import type { RateState } from '../keys/authorize';
import type { PlanLimits } from '../plans';
import { startOfNextUtcMonth, startOfUtcMonth } from '../usage/period';

/**
 * RateLimit-Policy and RateLimit header fields (IETF httpapi ratelimit-headers draft), one item per policy:
 * "per-second" for the key's token bucket, "workspace" for the bucket shared by the workspace's keys of this
 * environment, "monthly" for the workspace's allowance. For a bucket, `r` is the whole tokens left and `t` the
 * seconds until the bucket is full again (continuous refill: one token every 1/q s).
 */
export interface RateLimitState {
  plan: PlanLimits;
  monthlyRequests: number;
  /** The buckets after this request; null when the request did not reach them or there is no per-second limit. */
  rate: RateState | null;
  now: Date;
}

export function secondsUntilNextMonth(now: Date): number {
  return Math.max(1, Math.ceil((startOfNextUtcMonth(now).getTime() - now.getTime()) / 1000));
}

/** Whole seconds until a bucket of `capacity` (refilled at capacity per second) holds `wanted` tokens. */
export function secondsUntilTokens(tokens: number, capacity: number, wanted: number): number {
  if (tokens >= wanted) return 0;
  return Math.ceil((wanted - tokens) / capacity);
}

/** Retry-After of a rate-limited request: when the refusing bucket has one whole token again (at least 1 s). */
export function retryAfterSeconds(rate: RateState, bucket: 'key' | 'workspace'): number {
  const [tokens, capacity] =
    bucket === 'key' ? [rate.keyTokens, rate.keyCapacity] : [rate.workspaceTokens, rate.workspaceCapacity];
  return Math.max(1, secondsUntilTokens(tokens, capacity, 1));
}

export function rateLimitHeaders(state: RateLimitState): Record<string, string> {
  const { plan, now, rate } = state;
  const monthSeconds = Math.round((startOfNextUtcMonth(now).getTime() - startOfUtcMonth(now).getTime()) / 1000);
  const policies: string[] = [];
  const items: string[] = [];
  if (plan.rateLimitPerSecond > 0) {
    policies.push(`"per-second";q=${plan.rateLimitPerSecond};w=1`, `"workspace";q=${2 * plan.rateLimitPerSecond};w=1`);
  }
  if (rate) {
    const item = (name: string, tokens: number, capacity: number) =>
      `"${name}";r=${Math.max(0, Math.floor(tokens + 1e-9))};t=${secondsUntilTokens(tokens, capacity, capacity)}`;
    items.push(
      item('per-second', rate.keyTokens, rate.keyCapacity),
      item('workspace', rate.workspaceTokens, rate.workspaceCapacity),
    );
  }
  policies.push(`"monthly";q=${plan.monthlyLimit};w=${monthSeconds}`);
  items.push(`"monthly";r=${Math.max(0, plan.monthlyLimit - state.monthlyRequests)};t=${secondsUntilNextMonth(now)}`);
  return { 'RateLimit-Policy': policies.join(', '), RateLimit: items.join(', ') };
}
