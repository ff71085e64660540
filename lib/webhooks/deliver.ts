import { db, TRANSACTION_OPTIONS } from '../db';
import { toEventResource } from '../events/serialize';
import { loadAttempt, recordSuccess } from './attempt-store';
import { queueAttempt } from './deliveries';
import { signingSecrets } from './endpoints';
import { postWebhook, type AttemptResult } from './http';
import { DISABLE_AFTER_FAILING_MS, nextAttemptDelaySeconds, parseRetryAfter } from './schedule';
import { webhookHeaders } from './signing';
import { resolveDestination } from './url-policy';

export type AttemptOutcome = 'succeeded' | 'retry_scheduled' | 'failed' | 'skipped';

/**
 * One attempt of a delivery, as the worker's deliver_webhook job makes it: sign the event, check where the URL
 * resolves now (SSRF rules), POST once, then record the outcome: a success in one statement, a failure and
 * its next attempt in one transaction. 410 Gone disables the endpoint at once; 3 days of failures disable it too.
 */
export async function attemptDelivery(deliveryId: string, now: Date = new Date()): Promise<AttemptOutcome> {
  const delivery = await loadAttempt(deliveryId);
  if (!delivery || delivery.status !== 'pending') return 'skipped'; // pruned, deleted, or already settled
  const { endpoint, event } = delivery;
  if (endpoint.status === 'disabled') {
    await db().webhookDelivery.update({
      where: { id: deliveryId },
      data: { status: 'failed', lastError: 'Endpoint disabled', nextAttemptAt: null },
    });
    return 'failed';
  }

  const body = JSON.stringify(toEventResource(event));
  const url = new URL(endpoint.url);
  let result: AttemptResult;
  try {
    const destination = await resolveDestination(url);
    const headers = webhookHeaders(signingSecrets(endpoint, now), event.id, Math.floor(now.getTime() / 1000), body);
    result = await postWebhook(url, destination, headers, body);
  } catch (error) {
    // A refused destination (private address after resolution, unresolvable host) is a failed attempt.
    result = {
      status: null,
      durationMs: 0,
      body: '',
      retryAfter: null,
      error: error instanceof Error ? error.message.slice(0, 500) : 'Refused',
    };
  }

  const finished = new Date();
  const attempts = delivery.attempts + 1;
  const recorded = {
    attempts,
    lastStatusCode: result.status,
    lastDurationMs: result.durationMs,
    lastResponseBody: result.body,
    lastError: result.error,
    lastAttemptAt: now,
  };
  const succeeded = result.status !== null && result.status >= 200 && result.status < 300;

  if (succeeded) {
    await recordSuccess(deliveryId, recorded);
    return 'succeeded';
  }
  return db().$transaction(async (tx) => {
    const failingSince = endpoint.failingSince ?? now;
    const disableReason =
      result.status === 410
        ? `The endpoint answered 410 Gone on ${finished.toISOString()}`
        : finished.getTime() - failingSince.getTime() >= DISABLE_AFTER_FAILING_MS
          ? `Every attempt failed for 3 days (since ${failingSince.toISOString()})`
          : null;
    const delay = disableReason
      ? null
      : nextAttemptDelaySeconds(attempts, parseRetryAfter(result.retryAfter, finished));
    const nextAttemptAt = delay === null ? null : new Date(finished.getTime() + delay * 1000);
    await tx.webhookDelivery.update({
      where: { id: deliveryId },
      data: { ...recorded, status: nextAttemptAt ? 'pending' : 'failed', nextAttemptAt },
    });
    await tx.webhookEndpoint.update({
      where: { id: endpoint.id },
      data: disableReason ? { failingSince, status: 'disabled', disabledReason: disableReason } : { failingSince },
    });
    if (!nextAttemptAt) return 'failed';
    await queueAttempt(tx, deliveryId, nextAttemptAt);
    return 'retry_scheduled';
  }, TRANSACTION_OPTIONS);
}
