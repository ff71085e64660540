/**
 * What a delivery and an endpoint look like to a merchant (docs/webhooks.md "Delivery status and endpoint
 * health"). The stored status says only whether the worker still owes an attempt (`pending`); whether that
 * attempt is the first one or a retry after a failure is read from the attempt count and the last answer.
 */

export type DeliveryDisplayStatus = 'pending' | 'retrying' | 'failed' | 'delivered';

export interface DeliveryStatusInput {
  status: 'pending' | 'succeeded' | 'failed';
  attempts: number;
  lastStatusCode: number | null;
}

const succeededCode = (code: number | null) => code !== null && code >= 200 && code < 300;

/**
 * - `delivered`: the receiver answered 2xx;
 * - `failed`: the worker gave up (attempts used up, endpoint disabled, or 410 Gone);
 * - `retrying`: an attempt failed and another is scheduled;
 * - `pending`: no attempt yet, or a resend of a delivered event is queued (nothing has failed).
 */
export function deliveryDisplayStatus(delivery: DeliveryStatusInput): DeliveryDisplayStatus {
  if (delivery.status === 'succeeded') return 'delivered';
  if (delivery.status === 'failed') return 'failed';
  return delivery.attempts > 0 && !succeededCode(delivery.lastStatusCode) ? 'retrying' : 'pending';
}

export interface HealthDelivery {
  status: 'pending' | 'succeeded' | 'failed';
  attempts: number;
  lastStatusCode: number | null;
  lastError: string | null;
  lastAttemptAt: Date | null;
}

export interface EndpointHealth {
  /** The most recent attempt of any delivery: its outcome and when; null before the first attempt. */
  lastAttempt: { succeeded: boolean; statusCode: number | null; error: string | null; at: Date } | null;
  /** Deliveries whose latest attempt was in the window (24 h), and how many of them were delivered. */
  window: { attempted: number; delivered: number };
  /** Latest attempts that failed in a row, newest first, up to the first success (counted within the rows read). */
  consecutiveFailures: number;
  /** The summary shown as a badge. */
  state: 'healthy' | 'failing' | 'disabled' | 'no_deliveries';
}

export const HEALTH_WINDOW_MS = 24 * 3600 * 1000;

/**
 * Health from an endpoint's recent deliveries (any order). Each delivery keeps only its latest attempt, so
 * "consecutive failures" counts deliveries whose latest attempt failed, by attempt time, until one succeeded.
 */
export function endpointHealth(
  deliveries: readonly HealthDelivery[],
  endpointStatus: 'enabled' | 'disabled',
  now: Date = new Date(),
): EndpointHealth {
  const attempted = deliveries
    .filter(
      (delivery): delivery is HealthDelivery & { lastAttemptAt: Date } =>
        delivery.attempts > 0 && delivery.lastAttemptAt !== null,
    )
    .sort((a, b) => b.lastAttemptAt.getTime() - a.lastAttemptAt.getTime());
  const succeeded = (delivery: HealthDelivery) =>
    delivery.status === 'succeeded' || succeededCode(delivery.lastStatusCode);
  const latest = attempted[0];
  const since = now.getTime() - HEALTH_WINDOW_MS;
  const inWindow = attempted.filter((delivery) => delivery.lastAttemptAt.getTime() >= since);
  let consecutiveFailures = 0;
  for (const delivery of attempted) {
    if (succeeded(delivery)) break;
    consecutiveFailures += 1;
  }
  const state =
    endpointStatus === 'disabled'
      ? 'disabled'
      : !latest
        ? 'no_deliveries'
        : consecutiveFailures > 0
          ? 'failing'
          : 'healthy';
  return {
    lastAttempt: latest
      ? {
          succeeded: succeeded(latest),
          statusCode: latest.lastStatusCode,
          error: latest.lastError,
          at: latest.lastAttemptAt,
        }
      : null,
    window: { attempted: inWindow.length, delivered: inWindow.filter(succeeded).length },
    consecutiveFailures,
    state,
  };
}
