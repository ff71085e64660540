import { describe, expect, it } from 'vitest';
import { nextAttemptDelaySeconds, parseRetryAfter } from './schedule';

const SCHEDULE = [5, 300, 1800];

describe('retry schedule', () => {
  it('follows the schedule with ±10 % jitter, and stops when it runs out', () => {
    expect(nextAttemptDelaySeconds(1, null, SCHEDULE, () => 0)).toBeCloseTo(4.5);
    expect(nextAttemptDelaySeconds(1, null, SCHEDULE, () => 1)).toBeCloseTo(5.5);
    expect(nextAttemptDelaySeconds(2, null, SCHEDULE, () => 0.5)).toBeCloseTo(300);
    expect(nextAttemptDelaySeconds(4, null, SCHEDULE, () => 0.5)).toBeNull();
  });

  it('a Retry-After delays the next try, but never past the following slot', () => {
    expect(nextAttemptDelaySeconds(1, 60, SCHEDULE, () => 0.5)).toBe(60);
    expect(nextAttemptDelaySeconds(1, 100_000, SCHEDULE, () => 0.5)).toBe(300);
    expect(nextAttemptDelaySeconds(2, 1, SCHEDULE, () => 0.5)).toBeCloseTo(300);
  });

  it('reads Retry-After as seconds or an HTTP date', () => {
    const now = new Date('2026-11-23T12:00:00Z');
    expect(parseRetryAfter('120', now)).toBe(120);
    expect(parseRetryAfter('Mon, 23 Nov 2026 12:01:00 GMT', now)).toBe(60);
    expect(parseRetryAfter('soon', now)).toBeNull();
  });
});
