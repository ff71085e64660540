import { describe, expect, it } from 'vitest';
import { errorFromResponse } from '../../sdk/src/errors';
import { backoffMs, rateLimitResetMs, retryAfterMs, retryDelayAfter } from '../../sdk/src/retry';

/** The SDK's retry rules as functions of a response (headers exactly as the API sends them; tests/sdk/client.test.ts runs them against the server). */
const problem = (status: number, code: string, headers: Record<string, string> = {}) =>
  errorFromResponse(status, new Headers(headers), JSON.stringify({ status, code, detail: code, request_id: 'req_1' }));

describe('retry rules', () => {
  it('backoff doubles from 0.5 s up to 8 s, jittered between half and all of it', () => {
    expect([0, 1, 2, 3, 4, 5, 9].map((attempt) => backoffMs(attempt, () => 1))).toEqual([
      500, 1000, 2000, 4000, 8000, 8000, 8000,
    ]);
    expect([0, 1, 2, 3, 4].map((attempt) => backoffMs(attempt, () => 0))).toEqual([250, 500, 1000, 2000, 4000]);
  });

  it("Retry-After as seconds or an HTTP date; the RateLimit header's reset of an exhausted policy", () => {
    expect(retryAfterMs(new Headers({ 'retry-after': '3' }))).toBe(3000);
    expect(retryAfterMs(new Headers({ 'retry-after': new Date(10_000).toUTCString() }), 4_000)).toBe(6000);
    expect(retryAfterMs(new Headers())).toBeNull();
    expect(
      rateLimitResetMs(
        new Headers({ ratelimit: '"per-second";r=0;t=1, "workspace";r=12;t=1, "monthly";r=500;t=86400' }),
      ),
    ).toBe(1000);
    expect(rateLimitResetMs(new Headers({ ratelimit: '"per-second";r=3;t=1, "monthly";r=500;t=86400' }))).toBeNull();
  });

  it('429: waits what the server asks (plus ≤ 250 ms), from Retry-After or else RateLimit; a monthly limit is not waited for', () => {
    expect(retryDelayAfter(problem(429, 'rate_limited', { 'retry-after': '1' }), 0, 60_000, () => 1)).toBe(1250);
    expect(
      retryDelayAfter(problem(429, 'rate_limited', { ratelimit: '"per-second";r=0;t=2' }), 0, 60_000, () => 0),
    ).toBe(2000);
    expect(retryDelayAfter(problem(429, 'monthly_limit_exceeded', { 'retry-after': '1900000' }), 0, 60_000)).toBeNull();
  });

  it('5xx and 409 idempotency_key_in_use are retried; no other 4xx is', () => {
    expect(retryDelayAfter(problem(500, 'internal_error'), 1, 60_000, () => 1)).toBe(1000);
    expect(retryDelayAfter(problem(503, 'service_unavailable', { 'retry-after': '1' }), 0, 60_000, () => 0)).toBe(1000);
    expect(retryDelayAfter(problem(409, 'idempotency_key_in_use'), 0, 60_000, () => 1)).toBe(500);
    for (const [status, code] of [
      [400, 'validation_failed'],
      [401, 'invalid_api_key'],
      [403, 'missing_scope'],
      [404, 'invoice_not_found'],
      [409, 'idempotency_key_reused'],
      [409, 'invoice_not_cancellable'],
      [422, 'x'],
      [408, 'request_timeout'],
    ] as const) {
      expect(retryDelayAfter(problem(status, code), 0, 60_000), `${status} ${code}`).toBeNull();
    }
  });
});
