import { db, type Prisma, TRANSACTION_OPTIONS } from '../db';
import { AppError } from '../errors';
import type { EventType } from '../events/types';
import { endpointHealth, type EndpointHealth } from './delivery-status';

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

/** Deliveries per page of the portal's delivery log. */
export const DELIVERIES_PAGE_SIZE = 50;

/** Delivery ids are made by the database's fan-out (prisma/routines/events_fan_out.sql). */
export const DELIVERY_ID_PATTERN = /^whd_[0-9a-f]{32}$/;

/** A page of the log: `after` reads older deliveries than the one named, `before` newer ones; none: the newest. */
export type DeliveryCursor = { after: string } | { before: string } | null;

export interface DeliveryPage {
  deliveries: DeliveryView[];
  /** Cursor of the newer page (null on the first page). */
  newer: { before: string } | null;
  /** Cursor of the older page (null on the last page). */
  older: { after: string } | null;
}

/**
 * One page of an endpoint's deliveries, newest first, by keyset on (created_at, id) — deliveries of one event
 * fan-out share created_at, the id breaks the tie — so a page costs the same at any depth and a delivery
 * created meanwhile never shifts a page. An unknown or foreign cursor reads the first page.
 */
export async function listDeliveries(
  workspaceId: string,
  endpointId: string,
  cursor: DeliveryCursor = null,
  limit = DELIVERIES_PAGE_SIZE,
): Promise<DeliveryPage> {
  const scope = { endpointId, endpoint: { workspaceId } };
  const anchorId = cursor ? ('after' in cursor ? cursor.after : cursor.before) : null;
  const anchor =
    anchorId && DELIVERY_ID_PATTERN.test(anchorId)
      ? await db().webhookDelivery.findFirst({
          where: { id: anchorId, ...scope },
          select: { id: true, createdAt: true },
        })
      : null;
  const backwards = anchor !== null && cursor !== null && 'before' in cursor;
  const keyset = !anchor
    ? {}
    : backwards
      ? { OR: [{ createdAt: { gt: anchor.createdAt } }, { createdAt: anchor.createdAt, id: { gt: anchor.id } }] }
      : { OR: [{ createdAt: { lt: anchor.createdAt } }, { createdAt: anchor.createdAt, id: { lt: anchor.id } }] };
  const direction = backwards ? 'asc' : 'desc';
  const rows = await db().webhookDelivery.findMany({
    where: { ...scope, ...keyset },
    orderBy: [{ createdAt: direction }, { id: direction }],
    take: limit + 1,
    include: { event: { select: { type: true } } },
  });
  const more = rows.length > limit;
  const page = rows.slice(0, limit);
  if (backwards) page.reverse();
  const deliveries = page.map(({ event, endpointId: _endpointId, ...row }) => ({
    ...row,
    eventType: event.type as EventType,
  }));
  const first = deliveries[0];
  const last = deliveries.at(-1);
  return {
    deliveries,
    newer: anchor && first && (!backwards || more) ? { before: first.id } : null,
    older: last && (backwards || more) ? { after: last.id } : null,
  };
}

/** How many recent deliveries per endpoint the health summary reads (docs/webhooks.md). */
export const HEALTH_SAMPLE = 100;

/**
 * Endpoint health (lib/webhooks/delivery-status.ts endpointHealth) for each endpoint of the workspace: from its
 * latest HEALTH_SAMPLE deliveries, read newest first on the (endpoint_id, created_at) index.
 */
export async function endpointHealthById(
  workspaceId: string,
  endpoints: ReadonlyArray<{ id: string; status: 'enabled' | 'disabled' }>,
  now: Date = new Date(),
): Promise<Map<string, EndpointHealth>> {
  const entries = await Promise.all(
    endpoints.map(async (endpoint) => {
      const rows = await db().webhookDelivery.findMany({
        where: { endpointId: endpoint.id, endpoint: { workspaceId } },
        orderBy: { createdAt: 'desc' },
        take: HEALTH_SAMPLE,
        select: { status: true, attempts: true, lastStatusCode: true, lastError: true, lastAttemptAt: true },
      });
      return [endpoint.id, endpointHealth(rows, endpoint.status, now)] as const;
    }),
  );
  return new Map(entries);
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
