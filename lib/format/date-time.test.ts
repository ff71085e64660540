import { describe, expect, it } from 'vitest';
import { formatDateTime, formatDateTimeParts, formatUtcExact, isTimeZone } from './date-time';

describe('the portal date format', () => {
  const at = new Date('2026-11-25T19:13:05.123Z');

  it('"Nov 25, 2026, 7:13 PM" in the viewer\'s zone; UTC says so', () => {
    expect(formatDateTime(at, 'America/New_York')).toBe('Nov 25, 2026, 2:13 PM');
    expect(formatDateTime(at, 'Europe/Berlin')).toBe('Nov 25, 2026, 8:13 PM');
    expect(formatDateTime(at, 'Asia/Kolkata')).toBe('Nov 26, 2026, 12:43 AM');
    expect(formatDateTime(at, 'UTC')).toBe('Nov 25, 2026, 7:13 PM UTC');
    expect(formatDateTime(at)).toBe('Nov 25, 2026, 7:13 PM UTC');
    expect(formatDateTime('2026-11-25T19:13:05Z', 'Europe/Berlin')).toBe('Nov 25, 2026, 8:13 PM');
  });

  it('an unknown or hostile zone falls back to UTC, labelled', () => {
    expect(formatDateTime(at, 'Mars/Olympus')).toBe('Nov 25, 2026, 7:13 PM UTC');
    expect(formatDateTime(at, 'Europe/Berlin; path=/')).toBe('Nov 25, 2026, 7:13 PM UTC');
    expect(isTimeZone('Europe/Berlin')).toBe(true);
    expect(isTimeZone('')).toBe(false);
    expect(isTimeZone(undefined)).toBe(false);
    expect(isTimeZone('x'.repeat(65))).toBe(false);
  });

  it('plain spaces only (ICU versions differ before AM/PM), and the exact UTC instant for tooltips', () => {
    expect(formatDateTime(at, 'Europe/Berlin')).not.toMatch(/[\u202f\u00a0]/);
    expect(formatUtcExact(at)).toBe('2026-11-25 19:13:05 UTC');
    expect(formatDateTimeParts(at, 'Europe/Berlin')).toEqual(['Nov 25, 2026,', '8:13 PM']);
    expect(formatDateTimeParts(at, 'UTC')).toEqual(['Nov 25, 2026,', '7:13 PM UTC']);
  });
});
