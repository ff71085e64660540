import type { Task, TaskList } from 'graphile-worker';
import { pruneEvents } from '../events/prune';
import { announceExpiredInvoices } from '../invoices/expiry';
import { attemptDelivery } from '../webhooks/deliver';

/**
 * The worker's jobs, by name. Each is a thin call into lib/; scheduling (retries, run_at, one job per key) is
 * the queue's. Job names are also used by SQL (prisma/routines/events_fan_out.sql, lib/webhooks/deliveries.ts).
 */

/** How often expired invoices are looked for: invoice.expired is emitted within this (+ one sweep) of expires_at. */
export const EXPIRY_SWEEP_SECONDS = 2;
const EXPIRY_JOB_KEY = 'announce-expired-invoices';

const deliverWebhook: Task = async (payload) => {
  const deliveryId = (payload as { delivery_id?: unknown }).delivery_id;
  if (typeof deliveryId !== 'string') throw new Error('deliver_webhook: payload has no delivery_id');
  await attemptDelivery(deliveryId);
};

/** Announces every due expiry, then queues its own next run (one pending run at a time, by job key). */
const announceExpired: Task = async (_payload, helpers) => {
  while ((await announceExpiredInvoices()) > 0) {
    // a full batch may have more behind it; an empty one ends the sweep
  }
  await scheduleExpirySweep(helpers.addJob, EXPIRY_SWEEP_SECONDS);
};

export function scheduleExpirySweep(addJob: Parameters<Task>[1]['addJob'], inSeconds: number) {
  return addJob(
    'announce_expired_invoices',
    {},
    { jobKey: EXPIRY_JOB_KEY, jobKeyMode: 'preserve_run_at', runAt: new Date(Date.now() + inSeconds * 1000) },
  );
}

const prune: Task = async () => {
  await pruneEvents();
};

export const TASKS: TaskList = {
  deliver_webhook: deliverWebhook,
  announce_expired_invoices: announceExpired,
  prune_events: prune,
};

/** graphile-worker crontab: events older than 30 days are pruned hourly. */
export const CRONTAB = '17 * * * * prune_events';
