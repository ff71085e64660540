import { describe, expect, it } from 'vitest';
import { limitBucket } from './queries';

describe('limitBucket', () => {
  it('fetches at least the rows wanted, from at most six statement shapes for every API limit', () => {
    const buckets = new Set<number>();
    for (let limit = 1; limit <= 100; limit++) {
      const take = limit + 1;
      const bucket = limitBucket(take);
      expect(bucket).toBeGreaterThanOrEqual(take);
      buckets.add(bucket);
    }
    expect(buckets.size).toBeLessThanOrEqual(6);
  });

  it('fetches exactly one row more than asked for the common limits', () => {
    for (const limit of [1, 10, 20, 25, 50, 100]) expect(limitBucket(limit + 1)).toBe(limit + 1);
  });

  it('refuses a size that is not a positive integer (it becomes SQL text)', () => {
    for (const bad of [0, -1, 1.5, Number.NaN]) expect(() => limitBucket(bad)).toThrow();
  });
});
