import { db } from '../db';

/**
 * Throttling for sign-in and sign-up, stored in the database so it holds across app instances.
 *
 * Sign-in failures are counted per (email, client address) and per client address: those two limits stop a
 * guesser. Neither can be used by a stranger to lock the owner out, because the owner signs in from their own
 * address. Per email (across all addresses) there is only a progressive delay before the password is checked,
 * never a refusal, so a distributed guesser is slowed while the owner still gets in.
 *
 * Every check reserves its slot before the password is verified, in one atomic statement per counter (a row
 * lock, not count-then-insert), so a burst of parallel attempts cannot get more than the limit checked.
 * A success gives the slot back. Windows are fixed: a counter restarts when its window has ended.
 */
export const LOGIN_WINDOW_MINUTES = 15;
export const MAX_FAILURES_PER_EMAIL_AND_ADDRESS = 5;
export const MAX_FAILURES_PER_ADDRESS = 30;
/** Failures of one email, from anywhere, before its sign-ins start to wait (then 0.5 s, 1 s, 2 s … 4 s). */
export const EMAIL_DELAY_AFTER_FAILURES = 5;
const EMAIL_DELAY_BASE_MS = 500;
const EMAIL_DELAY_MAX_MS = 4_000;

export const SIGNUP_WINDOW_MINUTES = 60;

/**
 * Proofs given by a signed-in user or after a correct password, counted per user (the guesser holds a session or
 * the password, so the address tells nothing): `reauth` — passwords given again (step-up, password change);
 * `second_factor` — TOTP and recovery codes, at sign-in and at step-up alike. At most this many failures per
 * window, then refused until the window ends: 5 wrong codes per 15 minutes, with a replayed or neighbouring
 * step refused too, leaves a code guesser ≈ 3 × 5 / 10⁶ per window (docs/portal.md).
 */
export const MAX_USER_PROOF_FAILURES = 5;
export type UserProofKind = 'reauth' | 'second_factor';

/** The key used when no client address is known: such requests share one bucket (the strict choice). */
const UNKNOWN_ADDRESS = 'unknown';

const keys = {
  loginAddress: (address: string) => `login:addr:${address}`,
  loginPair: (email: string, address: string) => `login:pair:${address}|${email}`,
  loginEmail: (email: string) => `login:email:${email}`,
  signupAddress: (address: string) => `signup:addr:${address}`,
  userProof: (kind: UserProofKind, userId: string) => `${kind}:user:${userId}`,
};

/** Thrown inside the reservation transaction to roll back a slot taken from the first counter. */
class LimitReached extends Error {}

type Tx = Parameters<Parameters<ReturnType<typeof db>['$transaction']>[0]>[0];

/**
 * Takes one slot of `key` if fewer than `limit` are taken in its current window (a new window when it has
 * ended). One statement: concurrent callers queue on the row lock and each sees the others' increments.
 */
async function takeSlot(tx: Tx, key: string, limit: number, windowMinutes: number, now: Date): Promise<boolean> {
  const windowEnd = new Date(now.getTime() + windowMinutes * 60_000);
  const rows = await tx.$queryRaw<Array<{ count: number }>>`
    INSERT INTO throttle_counters AS t (key, count, window_ends_at) VALUES (${key}, 1, ${windowEnd})
    ON CONFLICT (key) DO UPDATE SET
      count = CASE WHEN t.window_ends_at <= ${now} THEN 1 ELSE t.count + 1 END,
      window_ends_at = CASE WHEN t.window_ends_at <= ${now} THEN EXCLUDED.window_ends_at ELSE t.window_ends_at END
    WHERE t.window_ends_at <= ${now} OR t.count < ${limit}
    RETURNING count`;
  return rows.length === 1;
}

/** Slots of several counters, all or none. */
async function takeSlots(
  slots: Array<{ key: string; limit: number; windowMinutes: number }>,
  now: Date,
): Promise<boolean> {
  try {
    await db().$transaction(async (tx) => {
      // Always the same order (address before pair), so two transactions never wait on each other in a cycle.
      for (const slot of slots) {
        if (!(await takeSlot(tx, slot.key, slot.limit, slot.windowMinutes, now))) throw new LimitReached();
      }
    });
    return true;
  } catch (error) {
    if (error instanceof LimitReached) return false;
    throw error;
  }
}

async function currentCount(key: string, now: Date): Promise<number> {
  const row = await db().throttleCounter.findUnique({ where: { key }, select: { count: true, windowEndsAt: true } });
  return row && row.windowEndsAt > now ? row.count : 0;
}

/** The wait before checking a password for an email that failed `failures` times in the window. */
export function emailDelayMs(failures: number): number {
  if (failures < EMAIL_DELAY_AFTER_FAILURES) return 0;
  return Math.min(EMAIL_DELAY_BASE_MS * 2 ** (failures - EMAIL_DELAY_AFTER_FAILURES), EMAIL_DELAY_MAX_MS);
}

export type LoginAttempt = { allowed: false } | { allowed: true; delayMs: number };

/**
 * Before checking a password: reserves a slot for the address and for (email, address); refused when either
 * is used up. When allowed, says how long to wait first (the per-email progressive delay).
 */
export async function beginLoginAttempt(
  email: string,
  address: string | null,
  now = new Date(),
): Promise<LoginAttempt> {
  const addr = address ?? UNKNOWN_ADDRESS;
  const allowed = await takeSlots(
    [
      { key: keys.loginAddress(addr), limit: MAX_FAILURES_PER_ADDRESS, windowMinutes: LOGIN_WINDOW_MINUTES },
      {
        key: keys.loginPair(email, addr),
        limit: MAX_FAILURES_PER_EMAIL_AND_ADDRESS,
        windowMinutes: LOGIN_WINDOW_MINUTES,
      },
    ],
    now,
  );
  if (!allowed) return { allowed: false };
  return { allowed: true, delayMs: emailDelayMs(await currentCount(keys.loginEmail(email), now)) };
}

/** A wrong password: the reserved slots stay taken, and the email's failure count (for the delay) grows. */
export async function loginFailed(email: string, now = new Date()): Promise<void> {
  await db().$transaction(async (tx) => {
    await takeSlot(tx, keys.loginEmail(email), 2_147_483_647, LOGIN_WINDOW_MINUTES, now);
  });
  await pruneExpired(now);
}

/** The right password: the slots are given back and the email's failures forgotten. */
export async function loginSucceeded(email: string, address: string | null): Promise<void> {
  const addr = address ?? UNKNOWN_ADDRESS;
  await db().$transaction([
    db().throttleCounter.updateMany({
      where: { key: keys.loginAddress(addr), count: { gt: 0 } },
      data: { count: { decrement: 1 } },
    }),
    db().throttleCounter.deleteMany({ where: { key: { in: [keys.loginPair(email, addr), keys.loginEmail(email)] } } }),
  ]);
}

/** Sign-up: `limit` accounts per client address per hour; refused beyond that. */
export async function takeSignUpSlot(address: string | null, limit: number, now = new Date()): Promise<boolean> {
  return takeSlots(
    [{ key: keys.signupAddress(address ?? UNKNOWN_ADDRESS), limit, windowMinutes: SIGNUP_WINDOW_MINUTES }],
    now,
  );
}

/**
 * Before checking a proof of `kind` for a user: reserves a slot (refused when MAX_USER_PROOF_FAILURES failures
 * are in the window). A success gives it back (userProofSucceeded); a failure keeps it.
 */
export async function beginUserProof(kind: UserProofKind, userId: string, now = new Date()): Promise<boolean> {
  return takeSlots(
    [{ key: keys.userProof(kind, userId), limit: MAX_USER_PROOF_FAILURES, windowMinutes: LOGIN_WINDOW_MINUTES }],
    now,
  );
}

export async function userProofSucceeded(kind: UserProofKind, userId: string): Promise<void> {
  await db().throttleCounter.updateMany({
    where: { key: keys.userProof(kind, userId), count: { gt: 0 } },
    data: { count: { decrement: 1 } },
  });
}

/** Counters whose window ended long ago no longer matter (index on window_ends_at). */
async function pruneExpired(now: Date): Promise<void> {
  await db().throttleCounter.deleteMany({ where: { windowEndsAt: { lt: new Date(now.getTime() - 60 * 60_000) } } });
}
