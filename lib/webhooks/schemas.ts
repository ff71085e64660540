import { z } from 'zod';
import { SUBSCRIBABLE_EVENT_TYPES } from '../events/types';
import { MAX_WEBHOOK_URL_LENGTH } from './url-policy';

/** Inputs of webhook endpoint management (portal server actions and the admin CLI). */

export const WEBHOOK_ENDPOINT_ID_PATTERN = /^we_[0-9A-Za-z]{24}$/;
export const WebhookEndpointId = z.string().regex(WEBHOOK_ENDPOINT_ID_PATTERN, 'Unknown webhook endpoint');

const EventTypes = z
  .array(
    z.enum(SUBSCRIBABLE_EVENT_TYPES as [string, ...string[]], {
      error: `event types are ${SUBSCRIBABLE_EVENT_TYPES.join(', ')}`,
    }),
  )
  .max(SUBSCRIBABLE_EVENT_TYPES.length)
  .transform((types) => [...new Set(types)].sort())
  .describe('Event types to receive; none: all');

export const CreateWebhookEndpointInput = z.strictObject({
  url: z
    .string()
    .trim()
    .min(1, 'URL is required')
    .max(MAX_WEBHOOK_URL_LENGTH, `URL is at most ${MAX_WEBHOOK_URL_LENGTH} characters`),
  description: z.string().trim().max(200, 'Description is at most 200 characters').default(''),
  environment: z.enum(['test', 'live'], { error: 'environment must be test or live' }),
  event_types: EventTypes.default([]),
});
export type CreateWebhookEndpointInput = z.input<typeof CreateWebhookEndpointInput>;

export const UpdateWebhookEndpointInput = z.strictObject({
  url: CreateWebhookEndpointInput.shape.url.optional(),
  description: z.string().trim().max(200, 'Description is at most 200 characters').optional(),
  event_types: EventTypes.optional(),
});
export type UpdateWebhookEndpointInput = z.input<typeof UpdateWebhookEndpointInput>;
