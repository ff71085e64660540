export { Client, Events, Invoices, Rates, TestInvoices } from './client.js';
export type { ClientOptions, RequestOptions } from './http.js';
export { PageList, type Page } from './pagination.js';
export { Webhooks, webhooks, type SignOptions, type SignedHeaders, type WebhookHeaders } from './webhooks.js';
export {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  AuthenticationError,
  ConflictError,
  CryptoInvoicingError,
  InvalidRequestError,
  NotFoundError,
  PermissionError,
  RateLimitError,
  SignatureVerificationError,
  type FieldError,
} from './errors.js';
export type * from './types.js';
export { VERSION } from './version.js';
export { Client as default } from './client.js';
