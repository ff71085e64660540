import { describe, expect, it } from 'vitest';
import { effectiveStatus, TRANSITIONS } from './state';

describe('invoice state machine', () => {
  const now = new Date('2026-11-22T12:00:00Z');
  it('a pending invoice past expires_at reads as expired; other states never expire', () => {
    expect(effectiveStatus('pending', new Date('2026-11-22T12:00:01Z'), now)).toBe('pending');
    expect(effectiveStatus('pending', now, now)).toBe('expired');
    expect(effectiveStatus('paid', new Date('2026-11-01T00:00:00Z'), now)).toBe('paid');
    expect(effectiveStatus('cancelled', new Date('2026-11-01T00:00:00Z'), now)).toBe('cancelled');
  });

  it('only pending invoices transition', () => {
    expect(TRANSITIONS.cancel).toEqual({
      from: 'pending',
      to: 'cancelled',
      conflict: 'invoice_not_cancellable',
      event: 'invoice.cancelled',
    });
    expect(TRANSITIONS.pay).toEqual({
      from: 'pending',
      to: 'paid',
      conflict: 'invoice_not_payable',
      event: 'invoice.paid',
    });
  });
});

describe('processing', () => {
  const now = new Date('2026-11-22T12:00:00Z');
  it('never expires: money is in flight', () => {
    expect(effectiveStatus('processing', new Date('2026-11-01T00:00:00Z'), now)).toBe('processing');
  });
  it('is not a source of any API transition', () => {
    for (const rule of Object.values(TRANSITIONS)) expect(rule.from).not.toBe('processing');
  });
});
