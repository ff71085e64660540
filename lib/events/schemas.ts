import { z } from 'zod';
import { INVOICE_EXAMPLE, InvoiceResource } from '../invoices/schemas';
import { EVENT_TYPE_NAMES } from './types';

/** Zod schemas of the events API: validation and the OpenAPI document (incl. its `webhooks` section). */

export const EVENT_ID_PATTERN = /^evt_[0-9A-Za-z]{24}$/;
export const EventId = z
  .string()
  .max(28)
  .regex(EVENT_ID_PATTERN)
  .describe('Event id, `evt_` followed by 24 base62 characters');
export const EventType = z.enum(EVENT_TYPE_NAMES, { error: `type must be one of ${EVENT_TYPE_NAMES.join(', ')}` });

export const EventIdParams = z.object({ id: z.string().max(255) });

export const ListEventsQuery = z.strictObject({
  limit: z.coerce
    .number({ error: 'limit must be an integer between 1 and 100' })
    .int('limit must be an integer between 1 and 100')
    .min(1, 'limit must be an integer between 1 and 100')
    .max(100, 'limit must be an integer between 1 and 100')
    .default(20),
  starting_after: z
    .string()
    .regex(EVENT_ID_PATTERN, 'starting_after must be an event id (evt_…)')
    .optional()
    .describe('Cursor: the `next_cursor` of the previous page'),
  type: EventType.optional().describe('Only events of this type'),
});
export type ListEventsQuery = z.output<typeof ListEventsQuery>;

export const EventResource = z
  .object({
    id: EventId,
    object: z.literal('event'),
    type: EventType,
    environment: z.enum(['test', 'live']),
    created_at: z.iso.datetime().describe('ISO 8601 UTC'),
    data: z.object({
      object: z
        .union([InvoiceResource, z.record(z.string(), z.unknown())])
        .describe(
          'The resource as GET returned it when the event happened: an invoice for invoice.* events, a payment for payment.*',
        ),
    }),
  })
  .meta({
    id: 'Event',
    examples: [
      {
        id: 'evt_8sKq2LmN4pRt6vXz1aBc3dEf',
        object: 'event',
        type: 'invoice.paid',
        environment: 'test',
        created_at: '2026-11-22T10:07:12.000Z',
        data: { object: INVOICE_EXAMPLE },
      },
    ],
  });

export const EventList = z
  .object({
    object: z.literal('list'),
    data: z.array(EventResource).max(100),
    has_more: z.boolean(),
    next_cursor: EventId.nullable(),
  })
  .meta({ id: 'EventList' });
