import type { APIError } from './errors.js';

/**
 * When to send a request again, and after how long. Retried: no response (network error, timeout), 429 (the
 * per-second limit), 5xx, and 409 `idempotency_key_in_use` (the first attempt of this very request is still running;
 * the API asks to retry shortly with the same key). Never any other 4xx: the same request gets the same answer.
 */
export const INITIAL_DELAY_MS = 500;
export const MAX_BACKOFF_MS = 8_000;

/** Exponential backoff with jitter: 0.5 s, 1 s, 2 s … (capped at 8 s), each taken between 50 % and 100 %. */
export function backoffMs(attempt: number, random: () => number = Math.random): number {
  const ceiling = Math.min(MAX_BACKOFF_MS, INITIAL_DELAY_MS * 2 ** attempt);
  return ceiling / 2 + (ceiling / 2) * random();
}

/** Seconds from `Retry-After` (delta-seconds or an HTTP date); null when absent or unreadable. */
export function retryAfterMs(headers: Headers, now = Date.now()): number | null {
  const value = headers.get('retry-after')?.trim();
  if (!value) return null;
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}

/**
 * From the RateLimit header (IETF ratelimit-headers draft, `"name";r=<remaining>;t=<seconds>` per policy): the
 * longest `t` among the exhausted policies (r=0); null when no policy is exhausted or the header is absent.
 */
export function rateLimitResetMs(headers: Headers): number | null {
  const value = headers.get('ratelimit');
  if (!value) return null;
  let longest: number | null = null;
  for (const item of value.split(',')) {
    const remaining = /;\s*r=(\d+)/.exec(item);
    const reset = /;\s*t=(\d+)/.exec(item);
    if (remaining && reset && Number(remaining[1]) === 0) longest = Math.max(longest ?? 0, Number(reset[1]) * 1000);
  }
  return longest;
}

/**
 * The delay before retrying after this error response, or null when it must not be retried. A server that asks for
 * more than `maxDelayMs` (a monthly allowance used up) is not waited for: the error reaches the caller at once.
 */
export function retryDelayAfter(
  error: APIError,
  attempt: number,
  maxDelayMs: number,
  random: () => number = Math.random,
): number | null {
  const retryable =
    error.status === 429 || error.status >= 500 || (error.status === 409 && error.code === 'idempotency_key_in_use');
  if (!retryable) return null;
  const asked = retryAfterMs(error.headers) ?? (error.status === 429 ? rateLimitResetMs(error.headers) : null);
  if (asked === null) return backoffMs(attempt, random);
  if (asked > maxDelayMs) return null;
  // At least what the server asked, plus up to a quarter second so that clients refused together do not return together.
  return asked + 250 * random();
}
