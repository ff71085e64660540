import { z } from 'zod';
import { AppError } from '../../errors';
import {
  cancelInvoice,
  createInvoice,
  pageQuery,
  presentInvoice,
  presentInvoicePage,
  simulateInvoicePayment,
} from '../../invoices/invoices';
import {
  CreateInvoiceBody,
  INVOICE_ID_PATTERN,
  InvoiceIdParams,
  InvoiceList,
  InvoiceResource,
  ListInvoicesQuery,
} from '../../invoices/schemas';
import { defineEndpoint } from '../endpoint';
import { tenantOfKey } from '../../tenant';
import { invoiceByIdRead, invoicePageRead } from '../../invoices/queries';
import { knownAnswer } from '../../tenant-read';
import { toInvoiceResource } from '../../invoices/serialize';
import { fromSnapshot, type InvoiceSnapshot } from '../../invoices/snapshot';

const EmptyBody = z.strictObject({}).meta({ id: 'EmptyRequest', description: 'No fields; an empty body or {}' });

/** The answer of an invoice operation that took effect, from the invoice row stored with its Idempotency-Key record. */
function renderInvoice(snapshot: unknown, at: Date) {
  return toInvoiceResource(fromSnapshot(snapshot as InvoiceSnapshot), at);
}

/** A malformed id can name no invoice: answer 404 without a database read. */
function invoiceId(params: { id: string }): string {
  if (!INVOICE_ID_PATTERN.test(params.id)) {
    throw new AppError('invoice_not_found', 'No invoice with this id exists in this workspace and environment');
  }
  return params.id;
}

export const listInvoicesEndpoint = defineEndpoint({
  operationId: 'listInvoices',
  method: 'GET',
  path: '/v1/invoices',
  summary: 'List invoices',
  description:
    "Newest first, only the calling key's workspace and environment. Paginate with `starting_after` = the previous page's `next_cursor`.",
  tags: ['Invoices'],
  scope: 'invoices:read',
  query: ListInvoicesQuery,
  response: InvoiceList,
  successStatus: 200,
  errors: ['validation_failed'],
  // Read in the authentication statement: one round trip for the whole request.
  read: ({ query, now }) => invoicePageRead(pageQuery(query, now)),
  handler: ({ query, now, read }) => presentInvoicePage(read, query, now),
});

export const createInvoiceEndpoint = defineEndpoint({
  operationId: 'createInvoice',
  method: 'POST',
  path: '/v1/invoices',
  summary: 'Create an invoice',
  description:
    "The invoice takes the calling key's environment. Live invoices need a wallet for the network and a network this deployment watches; each gets a `pay_amount` unique among open invoices on that wallet. Price it in crypto with `amount`, or in USD/EUR with `price_amount` + `price_currency`: the rate is locked for the invoice's life and `amount` is rounded up to the currency's decimals (no fresh rate → 503 `rate_unavailable`, nothing created).",
  tags: ['Invoices'],
  scope: 'invoices:write',
  body: CreateInvoiceBody,
  response: InvoiceResource,
  successStatus: 201,
  errors: [
    'validation_failed',
    'malformed_json',
    'payload_too_large',
    'network_not_watched',
    'wallet_not_configured',
    'pay_amounts_exhausted',
    'rate_unavailable',
  ],
  handler: ({ key, body, now, idempotency }) => createInvoice(tenantOfKey(key), body, now, idempotency),
  renderStored: renderInvoice,
});

export const getInvoiceEndpoint = defineEndpoint({
  operationId: 'getInvoice',
  method: 'GET',
  path: '/v1/invoices/{id}',
  summary: 'Retrieve an invoice',
  description:
    'With its status as of now (a pending invoice past `expires_at` reads as `expired`). An id of another workspace or environment is a 404.',
  tags: ['Invoices'],
  scope: 'invoices:read',
  params: InvoiceIdParams,
  response: InvoiceResource,
  successStatus: 200,
  errors: ['invoice_not_found'],
  // Read in the authentication statement: one round trip for the whole request.
  // A malformed id names no invoice: 404 without reading.
  read: ({ params }) => (INVOICE_ID_PATTERN.test(params.id) ? invoiceByIdRead(params.id) : knownAnswer(null)),
  handler: ({ now, read }) => presentInvoice(read, now),
});

export const cancelInvoiceEndpoint = defineEndpoint({
  operationId: 'cancelInvoice',
  method: 'POST',
  path: '/v1/invoices/{id}/cancel',
  summary: 'Cancel a pending invoice',
  tags: ['Invoices'],
  scope: 'invoices:write',
  params: InvoiceIdParams,
  body: EmptyBody,
  response: InvoiceResource,
  successStatus: 200,
  errors: ['invoice_not_found', 'invoice_not_cancellable', 'validation_failed', 'malformed_json'],
  handler: ({ key, params, now, idempotency }) => cancelInvoice(tenantOfKey(key), invoiceId(params), now, idempotency),
  renderStored: renderInvoice,
});

export const simulatePaymentEndpoint = defineEndpoint({
  operationId: 'simulateInvoicePayment',
  method: 'POST',
  path: '/v1/test/invoices/{id}/simulate-payment',
  summary: 'Simulate the payment of a test invoice',
  description: 'Test keys only. Marks a pending test invoice paid with a simulated payment.',
  tags: ['Test mode'],
  scope: 'invoices:write',
  params: InvoiceIdParams,
  body: EmptyBody,
  response: InvoiceResource,
  successStatus: 200,
  errors: ['test_mode_only', 'invoice_not_found', 'invoice_not_payable', 'validation_failed', 'malformed_json'],
  handler: ({ key, params, now, idempotency }) => {
    const tenant = tenantOfKey(key);
    if (tenant.environment !== 'test') {
      throw new AppError('test_mode_only', 'Payments can only be simulated with a test_ key, on test invoices');
    }
    return simulateInvoicePayment(tenant, invoiceId(params), now, idempotency);
  },
  renderStored: renderInvoice,
});
