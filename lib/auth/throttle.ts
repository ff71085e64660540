import { db } from '../db';

/**
 * Login throttling, stored in the database so it holds across app instances: too many failed sign-ins
 * for one email, or from one client address, within the window refuse further attempts (even with the
 * right password) until old failures leave the window. A success clears the email's failures.
 */
export const THROTTLE_WINDOW_MINUTES = 15;
export const MAX_FAILURES_PER_EMAIL = 5;
export const MAX_FAILURES_PER_IP = 30;

function windowStart(now: Date): Date {
  return new Date(now.getTime() - THROTTLE_WINDOW_MINUTES * 60_000);
}

export async function isLoginThrottled(email: string, ip: string, now = new Date()): Promise<boolean> {
  const since = windowStart(now);
  const [byEmail, byIp] = await Promise.all([
    db().loginAttempt.count({ where: { email, createdAt: { gt: since } } }),
    db().loginAttempt.count({ where: { ip, createdAt: { gt: since } } }),
  ]);
  return byEmail >= MAX_FAILURES_PER_EMAIL || byIp >= MAX_FAILURES_PER_IP;
}

export async function recordLoginFailure(email: string, ip: string, now = new Date()): Promise<void> {
  await db().loginAttempt.create({ data: { email, ip, createdAt: now } });
  // Keep the table small: rows outside the window no longer matter.
  await db().loginAttempt.deleteMany({ where: { createdAt: { lt: new Date(now.getTime() - 24 * 60 * 60_000) } } });
}

export async function clearLoginFailures(email: string): Promise<void> {
  await db().loginAttempt.deleteMany({ where: { email } });
}
