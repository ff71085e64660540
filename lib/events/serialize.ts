import { fromSnapshot, type InvoiceSnapshot } from '../invoices/snapshot';
import { toInvoiceResource } from '../invoices/serialize';
import type { EventRow } from './store';
import type { z } from 'zod';
import type { EventResource as EventResourceSchema } from './schemas';

export type EventResource = z.infer<typeof EventResourceSchema>;

/**
 * The event as the API returns it and webhooks deliver it. Invoice events keep the invoice's stored row; the
 * resource is derived from it exactly as GET derived it at the event's time (so `expired` reads as it did then).
 */
export function toEventResource(row: EventRow): EventResource {
  const object = row.type.startsWith('invoice.')
    ? toInvoiceResource(fromSnapshot(row.snapshot as InvoiceSnapshot), row.createdAt)
    : (row.snapshot as Record<string, unknown>);
  return {
    id: row.id,
    object: 'event',
    type: row.type,
    environment: row.environment,
    created_at: row.createdAt.toISOString(),
    data: { object },
  };
}
