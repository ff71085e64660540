/**
 * The hosted page's status endpoint is public, so it is limited per token (not per key): a fixed window of
 * HOSTED_STATUS_LIMIT requests a minute per token — the page polls every 2 s (30 a minute), which leaves room for
 * a second open tab. Kept in this process's memory: a limit for politeness and cheap abuse, not for billing; on
 * several instances each counts its own (docs/hosted-page.md).
 */
export const HOSTED_STATUS_LIMIT = 60;
const WINDOW_MS = 60_000;
const MAX_TRACKED = 10_000;

const windows = new Map<string, { start: number; count: number }>();

/** Counts one request; returns the seconds to wait when over the limit, else null. */
export function hostedRateLimit(token: string, now = Date.now()): number | null {
  let window = windows.get(token);
  if (!window || now - window.start >= WINDOW_MS) {
    // Bound the memory: forget every window when too many tokens are tracked (they are a minute long anyway).
    if (windows.size >= MAX_TRACKED) windows.clear();
    window = { start: now, count: 0 };
    windows.set(token, window);
  }
  window.count += 1;
  return window.count > HOSTED_STATUS_LIMIT ? Math.ceil((window.start + WINDOW_MS - now) / 1000) : null;
}
