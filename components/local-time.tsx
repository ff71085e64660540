'use client';

import { createContext, useContext, useEffect, useState, type ReactNode } from 'react';
import { formatDateTimeParts, formatUtcExact, isTimeZone, TIME_ZONE_COOKIE } from '@/lib/format/date-time';

/** The viewer's time zone as the portal knows it; null outside a TimeZoneProvider (e.g. the payer's page). */
const TimeZoneContext = createContext<string | null>(null);

function browserTimeZone(): string | null {
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  return isTimeZone(zone) ? zone : null;
}

/**
 * Gives every <LocalTime> below it one time zone: first the one the server rendered with (the `tz` cookie, or
 * UTC when there is none), then the browser's. The browser's zone goes into the cookie, so from the next page on
 * the server renders in it and nothing changes after hydration (docs/portal.md, "Dates and times").
 */
export function TimeZoneProvider({ serverTimeZone, children }: { serverTimeZone: string | null; children: ReactNode }) {
  const [zone, setZone] = useState(serverTimeZone ?? 'UTC');
  useEffect(() => {
    const browser = browserTimeZone();
    if (!browser) return;
    if (browser !== serverTimeZone) {
      // IANA names are cookie-safe as they are (letters, digits, _ + - /), and isTimeZone checks them on the server.
      document.cookie = `${TIME_ZONE_COOKIE}=${browser}; path=/; max-age=31536000; samesite=lax`;
    }
    // Only the browser knows its zone: after the first visit (no cookie yet) the dates switch to it once.
    // eslint-disable-next-line react-hooks/set-state-in-effect
    setZone(browser);
  }, [serverTimeZone]);
  return <TimeZoneContext.Provider value={zone}>{children}</TimeZoneContext.Provider>;
}

/**
 * A moment in time, the portal's one format ("Nov 25, 2026, 7:13 PM", lib/format/date-time.ts) in the viewer's
 * zone, with the exact UTC time on hover (title) and in `dateTime`. Outside a TimeZoneProvider it renders UTC
 * (labelled) on the server and switches to the browser's zone after hydration.
 */
export function LocalTime({ value, fallback = '—' }: { value: Date | string | null | undefined; fallback?: string }) {
  const provided = useContext(TimeZoneContext);
  const [detected, setDetected] = useState<string | null>(null);
  useEffect(() => {
    // No provider: the browser's zone is known only after hydration.
    // eslint-disable-next-line react-hooks/set-state-in-effect
    if (provided === null) setDetected(browserTimeZone());
  }, [provided]);
  if (!value) return <>{fallback}</>;
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return <>{fallback}</>;
  // Two unbreakable parts: a crowded table may put the time under the date, never split "Nov 25" or "7:13 PM".
  const [day, time] = formatDateTimeParts(date, provided ?? detected ?? 'UTC');
  return (
    <time dateTime={date.toISOString()} title={formatUtcExact(date)}>
      <span className="whitespace-nowrap">{day}</span> <span className="whitespace-nowrap">{time}</span>
    </time>
  );
}
