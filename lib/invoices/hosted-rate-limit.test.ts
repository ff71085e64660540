import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { db } from '../db';
import { ipv6Slash64 } from '../http/ipv6';
import { HOSTED_ADDRESS_LIMIT, HOSTED_STATUS_LIMIT, hostedRateLimit, LruWindows } from './hosted-rate-limit';

const token = () => randomBytes(32).toString('hex');
/** A documentation-range address of its own per test, so tests never share an address window. */
const address = () => `198.51.100.${1 + Math.floor(Math.random() * 250)}`;

describe('payer page limits', () => {
  it("10,000 junk tokens leave a real token's count intact (format checked first; LRU, no reset)", async () => {
    const real = token();
    const payer = '2001:db8:aaaa:1::1';
    for (let i = 0; i < HOSTED_STATUS_LIMIT - 1; i++)
      expect(await hostedRateLimit(real, payer)).toEqual({ outcome: 'ok' });
    // Malformed tokens: refused before anything is counted or stored.
    const before = await db().throttleCounter.findMany({
      where: { key: { startsWith: 'pay:addr:' } },
      select: { key: true, count: true },
    });
    for (let i = 0; i < 10_000; i++)
      expect((await hostedRateLimit(`junk-${i}-${'x'.repeat(200)}`, `203.0.113.${i % 250}`)).outcome).toBe('malformed');
    expect(
      await db().throttleCounter.findMany({
        where: { key: { startsWith: 'pay:addr:' } },
        select: { key: true, count: true },
      }),
    ).toEqual(before);
    // The real token's window is intact: one more is allowed, the next is refused.
    expect(await hostedRateLimit(real, payer)).toEqual({ outcome: 'ok' });
    expect(await hostedRateLimit(real, payer)).toMatchObject({ outcome: 'limited', retryAfter: expect.any(Number) });
  });

  it('well-formed junk tokens evict only the least recently used windows, never all of them', () => {
    const windows = new LruWindows(10_000);
    const now = Date.now();
    for (let i = 0; i < HOSTED_STATUS_LIMIT; i++) expect(windows.hit('real', HOSTED_STATUS_LIMIT, now)).toBeNull();
    for (let i = 0; i < 9_999; i++) windows.hit(`junk-${i}`, HOSTED_STATUS_LIMIT, now);
    expect(windows.size).toBe(10_000);
    expect(windows.hit('real', HOSTED_STATUS_LIMIT, now)).toBeGreaterThan(0); // still counted, over the limit
    // More junk now evicts the oldest junk first ("real" was just used).
    for (let i = 0; i < 5_000; i++) windows.hit(`more-${i}`, HOSTED_STATUS_LIMIT, now);
    expect(windows.size).toBe(10_000);
    expect(windows.hit('real', HOSTED_STATUS_LIMIT, now)).toBeGreaterThan(0);
  });

  it('one client address is limited across tokens, in the database (shared by every instance); others are not', async () => {
    const client = address();
    const other = `2001:db8:${randomBytes(2).toString('hex')}::1`;
    for (let i = 0; i < HOSTED_ADDRESS_LIMIT; i++) expect((await hostedRateLimit(token(), client)).outcome).toBe('ok');
    expect(await hostedRateLimit(token(), client)).toMatchObject({ outcome: 'limited' });
    const row = await db().throttleCounter.findUniqueOrThrow({ where: { key: `pay:addr:${client}` } });
    expect(row.count).toBe(HOSTED_ADDRESS_LIMIT);
    expect((await hostedRateLimit(token(), other)).outcome).toBe('ok');
    // IPv6 counts per /64: another address of the same /64 shares the window.
    expect((await hostedRateLimit(token(), other.replace(/::1$/, '::ffff:2'))).outcome).toBe('ok');
    const row6 = await db().throttleCounter.findUniqueOrThrow({ where: { key: `pay:addr:${ipv6Slash64(other)}` } });
    expect(row6.count).toBe(2);
    // A new window after a minute.
    expect(await hostedRateLimit(token(), client, new Date(Date.now() + 61_000))).toEqual({ outcome: 'ok' });
  });
});
