'use client';

import { useEffect, useState } from 'react';

function utc(date: Date): string {
  return `${date.toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}

const LOCAL = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/**
 * A timestamp in the viewer's local time zone, with the exact UTC time on hover (title) and in `dateTime`.
 * The server renders UTC (it does not know the viewer's zone); the browser swaps in local time after hydration.
 */
export function LocalTime({ value, fallback = '—' }: { value: Date | string | null | undefined; fallback?: string }) {
  const [local, setLocal] = useState<string | null>(null);
  const date = value ? new Date(value) : null;
  const ms = date?.getTime();
  useEffect(() => {
    // The viewer's zone is known only in the browser, after hydration: this swap is the point of the component.
    // eslint-disable-next-line react-hooks/set-state-in-effect
    if (ms !== undefined) setLocal(LOCAL.format(new Date(ms)));
  }, [ms]);
  if (!date) return <>{fallback}</>;
  return (
    <time dateTime={date.toISOString()} title={utc(date)} className="whitespace-nowrap">
      {local ?? utc(date)}
    </time>
  );
}
