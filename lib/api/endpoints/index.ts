import type { AnyEndpoint } from '../endpoint';
import {
  cancelInvoiceEndpoint,
  createInvoiceEndpoint,
  getInvoiceEndpoint,
  listInvoicesEndpoint,
  simulatePaymentEndpoint,
} from './invoices';
import { getMe } from './me';
import { getEventEndpoint, listEventsEndpoint } from './events';
import { getRateEndpoint } from './rates';

/** Every /v1 operation. The OpenAPI document and the route-list test read this registry. */
export const ENDPOINTS: AnyEndpoint[] = [
  getMe,
  listInvoicesEndpoint,
  createInvoiceEndpoint,
  getInvoiceEndpoint,
  cancelInvoiceEndpoint,
  simulatePaymentEndpoint,
  listEventsEndpoint,
  getEventEndpoint,
  getRateEndpoint,
];
