import { describe, expect, it } from 'vitest';
import { BASE62, newId, randomBase62 } from './ids';

describe('random ids (lib/ids.ts)', () => {
  it('are the requested length, in base62, with the kind prefix', () => {
    expect(randomBase62(24)).toMatch(/^[0-9A-Za-z]{24}$/);
    expect(newId('invoice')).toMatch(/^inv_[0-9A-Za-z]{24}$/);
    expect(newId('event')).toMatch(/^evt_[0-9A-Za-z]{24}$/);
  });

  it('draw every base62 character about equally often (no modulo bias), across many pool refills', () => {
    const counts = new Map<string, number>();
    const draws = 10_000; // 620,000 characters: ≈ 150 refills of the 4 KiB pool
    for (let i = 0; i < draws; i++) for (const char of randomBase62(62)) counts.set(char, (counts.get(char) ?? 0) + 1);
    expect([...counts.keys()].sort().join('')).toBe([...BASE62].sort().join(''));
    // Each character is expected 10,000 times (σ ≈ 99); byte % 62 over all 256 byte values would draw the
    // first eight characters 25 % more often (≈ 2,400 more). Bounds at about 6σ and 5σ.
    for (const count of counts.values()) expect(Math.abs(count - 10_000)).toBeLessThan(600);
    const first = [...BASE62.slice(0, 8)].reduce((sum, char) => sum + counts.get(char)!, 0) / 8;
    const rest = [...BASE62.slice(8)].reduce((sum, char) => sum + counts.get(char)!, 0) / 54;
    expect(Math.abs(first - rest)).toBeLessThan(200);
  });

  it('do not repeat', () => {
    const ids = new Set(Array.from({ length: 20_000 }, () => newId('request')));
    expect(ids.size).toBe(20_000);
  });
});
