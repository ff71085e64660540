import { describe, expect, it } from 'vitest';
import { deliveryDisplayStatus, endpointHealth, type HealthDelivery } from './delivery-status';
import { maxDeliveryAttempts } from './schedule';

describe('deliveryDisplayStatus', () => {
  it('tells a never-tried delivery from one waiting for a retry, a given-up one and a delivered one', () => {
    expect(deliveryDisplayStatus({ status: 'pending', attempts: 0, lastStatusCode: null })).toBe('pending');
    expect(deliveryDisplayStatus({ status: 'pending', attempts: 2, lastStatusCode: 500 })).toBe('retrying');
    expect(deliveryDisplayStatus({ status: 'pending', attempts: 1, lastStatusCode: null })).toBe('retrying'); // no answer (timeout, refused)
    expect(deliveryDisplayStatus({ status: 'failed', attempts: 10, lastStatusCode: 503 })).toBe('failed');
    expect(deliveryDisplayStatus({ status: 'succeeded', attempts: 3, lastStatusCode: 200 })).toBe('delivered');
  });

  it('a resend of a delivered event is pending, not retrying: nothing failed', () => {
    expect(deliveryDisplayStatus({ status: 'pending', attempts: 1, lastStatusCode: 204 })).toBe('pending');
  });

  it('counts the first attempt beside the retry slots', () => {
    expect(maxDeliveryAttempts([5, 300, 1800])).toBe(4);
  });
});

const NOW = new Date('2026-11-25T12:00:00Z');
const at = (hoursAgo: number) => new Date(NOW.getTime() - hoursAgo * 3600_000);
const delivery = (
  status: HealthDelivery['status'],
  hoursAgo: number | null,
  code: number | null = status === 'succeeded' ? 200 : 500,
): HealthDelivery => ({
  status,
  attempts: hoursAgo === null ? 0 : 1,
  lastStatusCode: hoursAgo === null ? null : code,
  lastError: null,
  lastAttemptAt: hoursAgo === null ? null : at(hoursAgo),
});

describe('endpointHealth', () => {
  it('reads the last outcome, the 24 h success count and the failures in a row, by attempt time', () => {
    const health = endpointHealth(
      [
        delivery('succeeded', 3),
        delivery('pending', 1),
        delivery('failed', 2),
        delivery('succeeded', 30),
        delivery('pending', null),
      ],
      'enabled',
      NOW,
    );
    expect(health.lastAttempt).toEqual({ succeeded: false, statusCode: 500, error: null, at: at(1) });
    expect(health.window).toEqual({ attempted: 3, delivered: 1 });
    expect(health.consecutiveFailures).toBe(2);
    expect(health.state).toBe('failing');
  });

  it('is healthy after a success, says so when nothing was attempted, and disabled wins', () => {
    expect(endpointHealth([delivery('failed', 5), delivery('succeeded', 1)], 'enabled', NOW)).toMatchObject({
      consecutiveFailures: 0,
      state: 'healthy',
    });
    expect(endpointHealth([delivery('pending', null)], 'enabled', NOW)).toMatchObject({
      lastAttempt: null,
      window: { attempted: 0, delivered: 0 },
      state: 'no_deliveries',
    });
    expect(endpointHealth([delivery('succeeded', 1)], 'disabled', NOW).state).toBe('disabled');
  });
});
