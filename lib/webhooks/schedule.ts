import { env } from '../env';

/**
 * When to try a failed delivery again (docs/webhooks.md): the schedule's slot for this attempt, ±10 % jitter so that
 * many deliveries failing together do not retry together. A receiver's Retry-After may push the next try
 * later, but never past the following slot. Null: no attempts left.
 */
export function nextAttemptDelaySeconds(
  failedAttempts: number,
  retryAfterSeconds: number | null,
  schedule: readonly number[] = env().WEBHOOK_RETRY_SCHEDULE,
  random: () => number = Math.random,
): number | null {
  const slot = schedule[failedAttempts - 1];
  if (slot === undefined) return null;
  const jittered = slot * (0.9 + 0.2 * random());
  if (retryAfterSeconds === null || retryAfterSeconds <= jittered) return jittered;
  const following = schedule[failedAttempts] ?? slot;
  return Math.min(retryAfterSeconds, Math.max(following, jittered));
}

/** A Retry-After header as seconds (delta-seconds or an HTTP date), or null. */
export function parseRetryAfter(value: string | null, now: Date = new Date()): number | null {
  if (!value) return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, (date - now.getTime()) / 1000);
}

/** An endpoint whose attempts have all failed for this long is disabled. */
export const DISABLE_AFTER_FAILING_MS = 3 * 24 * 3600 * 1000;

/** Attempts a delivery gets in all: the first one and one per slot of the retry schedule. */
export function maxDeliveryAttempts(schedule: readonly number[] = env().WEBHOOK_RETRY_SCHEDULE): number {
  return schedule.length + 1;
}
