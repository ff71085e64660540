import { formatUtcExact } from '@/lib/format/date-time';
import { LocalTime } from './local-time';

/** "in 59 min", "in 23 h", "in 6 days": how long until `date` (which is in the future). */
export function timeUntil(date: Date, now: Date = new Date()): string {
  const seconds = Math.max(0, Math.round((date.getTime() - now.getTime()) / 1000));
  if (seconds < 60) return 'in less than a minute';
  if (seconds < 3600) return `in ${Math.round(seconds / 60)} min`;
  if (seconds < 48 * 3600) return `in ${Math.round(seconds / 3600)} h`;
  return `in ${Math.round(seconds / 86_400)} days`;
}

/** "less than a minute ago", "3 minutes ago", "5 hours ago", "2 days ago": how long since `date`. */
export function timeAgo(date: Date, now: Date = new Date()): string {
  const seconds = Math.max(0, Math.round((now.getTime() - date.getTime()) / 1000));
  const plural = (n: number, unit: string) => `${n} ${unit}${n === 1 ? '' : 's'} ago`;
  if (seconds < 60) return 'less than a minute ago';
  if (seconds < 3600) return plural(Math.floor(seconds / 60), 'minute');
  if (seconds < 48 * 3600) return plural(Math.floor(seconds / 3600), 'hour');
  return plural(Math.floor(seconds / 86_400), 'day');
}

/** The expiry line under a key's status: "expires in 23 h", "expired Nov 23, 2026, 10:00 AM", nothing when none. */
export function KeyExpiry({
  expiresAt,
  revoked,
  now = new Date(),
}: {
  expiresAt: Date | null;
  revoked: boolean;
  now?: Date;
}) {
  if (!expiresAt || revoked) return null;
  const past = expiresAt.getTime() <= now.getTime();
  return (
    <span className="mt-1 block whitespace-nowrap text-xs text-slate-600">
      {past ? (
        <>
          expired <LocalTime value={expiresAt} />
        </>
      ) : (
        <span title={formatUtcExact(expiresAt)}>expires {timeUntil(expiresAt, now)}</span>
      )}
    </span>
  );
}
