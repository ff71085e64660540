import type { components, operations } from './generated/openapi.js';

/**
 * The SDK's public types, read from the types generated from /v1/openapi.json (src/generated/openapi.ts) by
 * operation, so they follow the document when it changes (`npm run sdk:types` at the repository's root).
 */
type JsonOf<T> = T extends { content: { 'application/json': infer Body } } ? Body : never;
type SuccessBody<Op extends keyof operations> = JsonOf<
  operations[Op]['responses'] extends infer R ? R[keyof R & (200 | 201)] : never
>;
type RequestBody<Op extends keyof operations> = operations[Op] extends { requestBody: infer B }
  ? JsonOf<NonNullable<B>>
  : never;
type Query<Op extends keyof operations> = operations[Op] extends { parameters: { query?: infer Q } }
  ? NonNullable<Q>
  : never;

export type Me = SuccessBody<'getMe'>;
export type Invoice = SuccessBody<'getInvoice'>;
export type InvoiceList = SuccessBody<'listInvoices'>;
export type InvoiceCreateParams = RequestBody<'createInvoice'>;
export type InvoiceListParams = Query<'listInvoices'>;
export type InvoiceStatus = Invoice['status'];
export type Event = SuccessBody<'getEvent'>;
export type EventList = SuccessBody<'listEvents'>;
export type EventListParams = Query<'listEvents'>;
export type EventType = Event['type'];
export type Rate = SuccessBody<'getRate'>;
export type RateParams = Query<'getRate'>;
export type Problem = components['schemas']['Problem'];
export type { components, operations, paths, webhooks } from './generated/openapi.js';
