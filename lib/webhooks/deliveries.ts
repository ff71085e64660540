import { db, type Prisma, TRANSACTION_OPTIONS } from '../db';
import { AppError } from '../errors';
import type { EventType } from '../events/types';

/** The delivery log of an endpoint, and "Resend". Scoped by workspace through the endpoint. */

export interface DeliveryView {
  id: string;
  eventId: string;
  eventType: EventType;
  status: 'pending' | 'succeeded' | 'failed';
  attempts: number;
  lastStatusCode: number | null;
  lastDurationMs: number | null;
  lastResponseBody: string | null;
  lastError: string | null;
  lastAttemptAt: Date | null;
  nextAttemptAt: Date | null;
  createdAt: Date;
}

export async function listDeliveries(workspaceId: string, endpointId: string, limit = 50): Promise<DeliveryView[]> {
  const rows = await db().webhookDelivery.findMany({
    where: { endpointId, endpoint: { workspaceId } },
    orderBy: { createdAt: 'desc' },
    take: limit,
    include: { event: { select: { type: true } } },
  });
  return rows.map(({ event, endpointId: _endpointId, ...row }) => ({ ...row, eventType: event.type as EventType }));
}

/**
 * Queues the delivery's next attempt (graphile-worker's add_job, in the caller's transaction). The job key
 * keeps one queued attempt per delivery: a resend replaces a scheduled retry instead of adding a second one.
 */
export async function queueAttempt(tx: Prisma.TransactionClient, deliveryId: string, runAt: Date): Promise<void> {
  await tx.$executeRaw`SELECT graphile_worker.add_job('deliver_webhook', json_build_object('delivery_id', ${deliveryId}::text),
    run_at := ${runAt}::timestamptz, job_key := ${`delivery:${deliveryId}`}::text, job_key_mode := 'replace', max_attempts := 25)`;
}

/** "Resend": an attempt now, with the same webhook-id (the event id). */
export async function resendDelivery(workspaceId: string, deliveryId: string, now = new Date()): Promise<void> {
  await db().$transaction(async (tx) => {
    const { count } = await tx.webhookDelivery.updateMany({
      where: { id: deliveryId, endpoint: { workspaceId } },
      data: { status: 'pending', nextAttemptAt: now },
    });
    if (count === 0) throw new AppError('not_found', 'No such delivery in this workspace');
    await queueAttempt(tx, deliveryId, now);
  }, TRANSACTION_OPTIONS);
}
