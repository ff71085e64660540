import { db } from '../db';
import { daysInUtcMonth, monthPeriod, startOfNextUtcMonth, startOfUtcMonth } from './period';

/** Read side of usage for the portal. Every query is scoped by workspaceId (the tenant boundary). */

export interface DailyUsage {
  /** "YYYY-MM-DD" (UTC) */
  day: string;
  count: number;
}

export interface KeyUsage {
  keyId: number;
  label: string;
  prefix: string;
  environment: 'test' | 'live';
  revoked: boolean;
  count: number;
}

/** Requests counted this UTC month for the workspace (the number the monthly allowance is checked against). */
export async function monthlyRequestCount(workspaceId: string, now = new Date()): Promise<number> {
  const row = await db().usageMonthly.findUnique({
    where: { workspaceId_period: { workspaceId, period: monthPeriod(now) } },
    select: { count: true },
  });
  return row?.count ?? 0;
}

/** One entry per day of the month (zeros included), summed over the workspace's keys. */
export async function dailyRequestCounts(workspaceId: string, now = new Date()): Promise<DailyUsage[]> {
  const start = startOfUtcMonth(now);
  const rows = await db().usageDaily.groupBy({
    by: ['day'],
    where: { workspaceId, day: { gte: start, lt: startOfNextUtcMonth(now) } },
    _sum: { count: true },
  });
  const byDay = new Map(rows.map((row) => [row.day.toISOString().slice(0, 10), row._sum.count ?? 0]));
  return Array.from({ length: daysInUtcMonth(now) }, (_, i) => {
    const day = new Date(start.getTime() + i * 86_400_000).toISOString().slice(0, 10);
    return { day, count: byDay.get(day) ?? 0 };
  });
}

/** Requests this month per key of the workspace, busiest first (keys without requests included, at 0). */
export async function requestCountsByKey(workspaceId: string, now = new Date()): Promise<KeyUsage[]> {
  const [rows, keys] = await Promise.all([
    db().usageDaily.groupBy({
      by: ['keyId'],
      where: { workspaceId, day: { gte: startOfUtcMonth(now), lt: startOfNextUtcMonth(now) } },
      _sum: { count: true },
    }),
    db().apiKey.findMany({
      where: { workspaceId },
      select: { id: true, label: true, prefix: true, environment: true, revokedAt: true },
      orderBy: { id: 'asc' },
    }),
  ]);
  const counts = new Map(rows.map((row) => [row.keyId, row._sum.count ?? 0]));
  return keys
    .map((key) => ({
      keyId: key.id,
      label: key.label,
      prefix: key.prefix,
      environment: key.environment,
      revoked: key.revokedAt !== null,
      count: counts.get(key.id) ?? 0,
    }))
    .sort((a, b) => b.count - a.count || a.keyId - b.keyId);
}
