/**
 * The event catalogue (docs/webhooks.md): every type the product emits, with what it means. The API's `type` filter,
 * the portal's subscription checkboxes, the OpenAPI `webhooks` section and the docs all read this list.
 */
export const EVENT_TYPES = {
  'invoice.created': 'An invoice was created.',
  'invoice.processing': 'A payment matching the invoice was seen on chain; it awaits confirmations.',
  'invoice.paid': 'The invoice was paid (confirmed on chain, or simulated in test mode).',
  'invoice.cancelled': 'The invoice was cancelled.',
  'invoice.expired': 'The invoice reached expires_at unpaid (emitted by the worker within seconds).',
  'invoice.payment_reverted':
    "The block holding the invoice's payment was reorganised away; the invoice is open again.",
  'invoice.paid_late': 'A payment confirmed after expires_at, inside the monitoring window; the invoice stays expired.',
  'payment.unmatched': 'A transfer to a watched wallet matched no invoice.',
  'webhook_endpoint.test': 'A test event sent from the portal to one endpoint.',
} as const;

export type EventType = keyof typeof EVENT_TYPES;
export const EVENT_TYPE_NAMES = Object.keys(EVENT_TYPES) as [EventType, ...EventType[]];

/** Types an endpoint can subscribe to (the test event always goes to the one endpoint it is sent to). */
export const SUBSCRIBABLE_EVENT_TYPES = EVENT_TYPE_NAMES.filter((type) => type !== 'webhook_endpoint.test');

export function isEventType(value: string): value is EventType {
  return Object.hasOwn(EVENT_TYPES, value);
}

/** Events are kept this long, then pruned by the worker. */
export const EVENT_RETENTION_DAYS = 30;
