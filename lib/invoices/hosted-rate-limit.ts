import { db } from '../db';
import { ipv6Slash64 } from '../http/ipv6';
import { PAY_TOKEN_PATTERN } from './hosted-url';

/**
 * Limits of the hosted page's public endpoints (`/pay/<token>/status`, `/simulate`), checked in this order:
 *
 * 1. **Format first.** A token that is not 64 lowercase hex is a 404 before anything is counted or stored, so
 *    junk tokens neither cost memory nor touch a real token's window.
 * 2. **Per client address, shared through the database** (`throttle_counters`, key `pay:addr:<address>`, one
 *    atomic upsert): HOSTED_ADDRESS_LIMIT requests a minute from one address — IPv6 counted per /64 — on every
 *    instance together. This is what stops one client from cycling through many tokens.
 * 3. **Per token, in this process**: HOSTED_STATUS_LIMIT a minute (the page polls every 2 s, 30 a minute, which
 *    leaves room for a second tab), in a map bounded by least-recently-used eviction — a flood of tokens evicts
 *    the oldest windows one by one, never all of them.
 */
export const HOSTED_STATUS_LIMIT = 60;
/** Generous: several payers behind one NAT each poll 30 times a minute. */
export const HOSTED_ADDRESS_LIMIT = 600;
const WINDOW_MS = 60_000;
export const MAX_TRACKED_TOKENS = 50_000;

/** Fixed one-minute windows per key, at most `capacity` keys; the least recently used key goes first. */
export class LruWindows {
  private readonly windows = new Map<string, { start: number; count: number }>();
  constructor(private readonly capacity: number) {}

  /** Counts one request; the seconds to wait when over `limit`, else null. */
  hit(key: string, limit: number, now: number): number | null {
    let window = this.windows.get(key);
    if (window) this.windows.delete(key); // re-inserted below: Map order is recency order
    if (!window || now - window.start >= WINDOW_MS) window = { start: now, count: 0 };
    this.windows.set(key, window);
    if (this.windows.size > this.capacity) {
      const oldest = this.windows.keys().next().value;
      if (oldest !== undefined) this.windows.delete(oldest);
    }
    window.count += 1;
    return window.count > limit ? Math.ceil((window.start + WINDOW_MS - now) / 1000) : null;
  }

  get size(): number {
    return this.windows.size;
  }
}

const tokenWindows = new LruWindows(MAX_TRACKED_TOKENS);

function addressKey(address: string | null): string {
  if (!address) return 'pay:addr:unknown';
  return `pay:addr:${address.includes(':') ? (ipv6Slash64(address) ?? address) : address}`;
}

/** One slot of the address's shared window; the seconds to wait when the window is full, else null. */
async function takeAddressSlot(address: string | null, now: Date): Promise<number | null> {
  const windowEnd = new Date(now.getTime() + WINDOW_MS);
  const rows = await db().$queryRaw<Array<{ count: number }>>`
    INSERT INTO throttle_counters AS t (key, count, window_ends_at) VALUES (${addressKey(address)}, 1, ${windowEnd})
    ON CONFLICT (key) DO UPDATE SET
      count = CASE WHEN t.window_ends_at <= ${now} THEN 1 ELSE t.count + 1 END,
      window_ends_at = CASE WHEN t.window_ends_at <= ${now} THEN EXCLUDED.window_ends_at ELSE t.window_ends_at END
    WHERE t.window_ends_at <= ${now} OR t.count < ${HOSTED_ADDRESS_LIMIT}
    RETURNING count`;
  if (rows.length === 1) return null;
  const [row] = await db().$queryRaw<
    Array<{ window_ends_at: Date }>
  >`SELECT window_ends_at FROM throttle_counters WHERE key = ${addressKey(address)}`;
  return Math.max(1, Math.ceil(((row?.window_ends_at.getTime() ?? now.getTime() + WINDOW_MS) - now.getTime()) / 1000));
}

export type HostedLimit = { outcome: 'ok' } | { outcome: 'malformed' } | { outcome: 'limited'; retryAfter: number };

/** The three checks above, for one request of `address` (lib/http/client-address.ts) to `token`. */
export async function hostedRateLimit(token: string, address: string | null, now = new Date()): Promise<HostedLimit> {
  if (!PAY_TOKEN_PATTERN.test(token)) return { outcome: 'malformed' };
  const addressWait = await takeAddressSlot(address, now);
  if (addressWait !== null) return { outcome: 'limited', retryAfter: addressWait };
  const tokenWait = tokenWindows.hit(token, HOSTED_STATUS_LIMIT, now.getTime());
  return tokenWait === null ? { outcome: 'ok' } : { outcome: 'limited', retryAfter: tokenWait };
}
