import { meteringSql, runStatement } from '../db';
import type { Tenant } from '../tenant';
import { EVENT_TYPES, isEventType } from '../events/types';
import type { InvoiceResource } from './schemas';

/**
 * An invoice's history for the portal (docs/portal.md, "Invoice detail"): its events (each with the webhook
 * deliveries it caused) and its on-chain payments, oldest first. Events are kept EVENT_RETENTION_DAYS; the
 * invoice's own timestamps stand in for events already pruned. Scoped to the workspace and environment.
 */
export interface TimelineDelivery {
  id: string;
  endpointId: string;
  url: string;
  status: 'pending' | 'succeeded' | 'failed';
  attempts: number;
  lastStatusCode: number | null;
  lastAttemptAt: Date | null;
  nextAttemptAt: Date | null;
}

export type TimelineEntry =
  | { kind: 'event'; at: Date; id: string; type: string; description: string; deliveries: TimelineDelivery[] }
  | {
      kind: 'payment_detected' | 'payment_confirmed';
      at: Date;
      paymentId: string;
      txHash: string;
      amount: string;
      currency: string;
      network: string;
      status: string;
    }
  | { kind: 'pruned'; at: Date; type: string; description: string };

interface EventRowJson {
  id: string;
  type: string;
  created_at: Date;
  deliveries: Array<{
    id: string;
    endpoint_id: string;
    url: string;
    status: TimelineDelivery['status'];
    attempts: number;
    last_status_code: number | null;
    last_attempt_at: string | null;
    next_attempt_at: string | null;
  }>;
}

/**
 * Events of one invoice: its snapshot's id, of this workspace and environment, not before the invoice existed.
 * (No index on the snapshot's id: the workspace's events of the retention window are filtered.)
 */
async function invoiceEvents(tenant: Tenant, invoiceId: string, createdAt: Date): Promise<EventRowJson[]> {
  return runStatement<EventRowJson>(
    meteringSql(),
    `SELECT e.id, e.type, e.created_at,
            COALESCE((SELECT json_agg(json_build_object('id', d.id, 'endpoint_id', w.id, 'url', w.url, 'status', d.status,
                        'attempts', d.attempts, 'last_status_code', d.last_status_code, 'last_attempt_at', d.last_attempt_at,
                        'next_attempt_at', d.next_attempt_at) ORDER BY d.created_at, d.id)
                        FROM webhook_deliveries d JOIN webhook_endpoints w ON w.id = d.endpoint_id
                       WHERE d.event_id = e.id AND w.workspace_id = $1), '[]'::json) AS deliveries
       FROM events e
      WHERE e.workspace_id = $1 AND e.environment = $2::"Environment" AND e.type LIKE 'invoice.%'
        AND e.snapshot->>'id' = $3 AND e.created_at >= $4::timestamptz
      ORDER BY e.seq`,
    [tenant.workspaceId, tenant.environment, invoiceId, createdAt],
  );
}

const date = (value: string | null) => (value === null ? null : new Date(value));

export async function invoiceTimeline(tenant: Tenant, invoice: InvoiceResource): Promise<TimelineEntry[]> {
  const events = await invoiceEvents(tenant, invoice.id, new Date(invoice.created_at));
  const entries: TimelineEntry[] = events.map((event) => ({
    kind: 'event',
    at: new Date(event.created_at),
    id: event.id,
    type: event.type,
    description: isEventType(event.type) ? EVENT_TYPES[event.type] : event.type,
    deliveries: event.deliveries.map((d) => ({
      id: d.id,
      endpointId: d.endpoint_id,
      url: d.url,
      status: d.status,
      attempts: d.attempts,
      lastStatusCode: d.last_status_code,
      lastAttemptAt: date(d.last_attempt_at),
      nextAttemptAt: date(d.next_attempt_at),
    })),
  }));
  // Events older than the retention window are gone: the invoice's own timestamps still tell the story.
  const seen = new Set(events.map((event) => event.type));
  const fallbacks: Array<[string, string | null]> = [
    ['invoice.created', invoice.created_at],
    ['invoice.paid', invoice.paid_at],
    ['invoice.cancelled', invoice.cancelled_at],
  ];
  for (const [type, at] of fallbacks) {
    if (at && !seen.has(type))
      entries.push({
        kind: 'pruned',
        at: new Date(at),
        type,
        description: EVENT_TYPES[type as keyof typeof EVENT_TYPES],
      });
  }
  for (const payment of invoice.payments) {
    const common = {
      paymentId: payment.id,
      txHash: payment.tx_hash,
      amount: payment.amount,
      currency: payment.currency,
      network: payment.network,
      status: payment.status,
    };
    entries.push({ kind: 'payment_detected', at: new Date(payment.detected_at), ...common });
    if (payment.confirmed_at)
      entries.push({ kind: 'payment_confirmed', at: new Date(payment.confirmed_at), ...common });
  }
  // Oldest first; at the same instant a payment comes before the event it caused.
  const rank = (entry: TimelineEntry) => (entry.kind === 'event' || entry.kind === 'pruned' ? 1 : 0);
  return entries
    .map((entry, index) => ({ entry, index }))
    .sort((a, b) => a.entry.at.getTime() - b.entry.at.getTime() || rank(a.entry) - rank(b.entry) || a.index - b.index)
    .map(({ entry }) => entry);
}
