/**
 * The one way the portal (and its mails) write a moment in time (docs/portal.md, "Dates and times"):
 * "Nov 25, 2026, 7:13 PM" in the viewer's time zone, the way Stripe's dashboard does, with the exact UTC time
 * ("2026-11-25 19:13:05 UTC") as the tooltip. When the zone is not known (a mail, a first visit), UTC is used and
 * said: "Nov 25, 2026, 7:13 PM UTC". English month names and a 12-hour clock whatever the browser's locale, so
 * the server and the browser render the same text.
 */

/** The cookie the browser keeps its IANA time zone in, so the server renders dates in it. */
export const TIME_ZONE_COOKIE = 'tz';

const formats = new Map<string, Intl.DateTimeFormat>();

/** Whether `name` is an IANA time zone this runtime knows ("Europe/Berlin", "UTC"). */
export function isTimeZone(name: string | null | undefined): name is string {
  if (!name || name.length > 64 || !/^[A-Za-z0-9_+\-/]+$/.test(name)) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

function formatIn(timeZone: string): Intl.DateTimeFormat {
  let format = formats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short', timeZone });
    formats.set(timeZone, format);
  }
  return format;
}

/**
 * "Nov 25, 2026, 7:13 PM" in `timeZone` (an IANA name; anything else counts as UTC), "… UTC" when in UTC.
 * ICU versions differ in the space before AM/PM (U+202F or a plain space): always a plain space here.
 */
export function formatDateTime(value: Date | string, timeZone: string = 'UTC'): string {
  const date = typeof value === 'string' ? new Date(value) : value;
  const zone = isTimeZone(timeZone) ? timeZone : 'UTC';
  const text = formatIn(zone)
    .format(date)
    .replace(/[\u202f\u00a0]/g, ' ');
  return zone === 'UTC' || zone === 'Etc/UTC' ? `${text} UTC` : text;
}

/**
 * The same text in two parts, the date ("Nov 25, 2026,") and the time ("7:13 PM"), for a narrow table cell that
 * may put the time on a second line but should never break inside either part.
 */
export function formatDateTimeParts(value: Date | string, timeZone: string = 'UTC'): [date: string, time: string] {
  const text = formatDateTime(value, timeZone);
  const at = text.lastIndexOf(', ') + 1;
  return [text.slice(0, at), text.slice(at + 1)];
}

/** "2026-11-25 19:13:05 UTC": the exact instant, for a tooltip or a log line. */
export function formatUtcExact(value: Date | string): string {
  const date = typeof value === 'string' ? new Date(value) : value;
  return `${date.toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}
