/**
 * The error catalogue: every error code the product can return, with its HTTP status and title.
 * The API's problem responses, the portal's messages, the admin CLI and the OpenAPI document all read it.
 */
export const ERROR_CATALOGUE = {
  missing_api_key: { status: 401, title: 'Missing API key' },
  invalid_api_key: { status: 401, title: 'Invalid API key' },
  revoked_api_key: { status: 401, title: 'Revoked API key' },
  plan_without_api_access: { status: 403, title: 'Plan without API access' },
  missing_scope: { status: 403, title: 'Missing scope' },
  test_mode_only: { status: 403, title: 'Test mode only' },
  monthly_limit_exceeded: { status: 429, title: 'Monthly request limit exceeded' },
  rate_limited: { status: 429, title: 'Rate limit exceeded' },
  validation_failed: { status: 400, title: 'Validation failed' },
  malformed_json: { status: 400, title: 'Malformed JSON body' },
  payload_too_large: { status: 413, title: 'Payload too large' },
  route_not_found: { status: 404, title: 'Route not found' },
  method_not_allowed: { status: 405, title: 'Method not allowed' },
  invoice_not_found: { status: 404, title: 'Invoice not found' },
  invoice_not_cancellable: { status: 409, title: 'Invoice not cancellable' },
  invoice_not_payable: { status: 409, title: 'Invoice not payable' },
  event_not_found: { status: 404, title: 'Event not found' },
  wallet_not_configured: { status: 422, title: 'Wallet not configured' },
  network_not_watched: { status: 422, title: 'Network not watched' },
  pay_amounts_exhausted: { status: 422, title: 'No unique pay amount left' },
  idempotency_key_reused: { status: 422, title: 'Idempotency key reused' },
  idempotency_key_in_use: { status: 409, title: 'Idempotency key in use' },
  // Non-API domain errors (portal and admin CLI); statuses are used if they ever reach HTTP.
  not_found: { status: 404, title: 'Not found' },
  email_taken: { status: 409, title: 'Email already registered' },
  invalid_wallet_address: { status: 400, title: 'Invalid wallet address' },
  key_already_revoked: { status: 409, title: 'Key already revoked' },
  webhook_url_refused: { status: 400, title: 'Webhook URL refused' },
  webhook_endpoint_not_found: { status: 404, title: 'Webhook endpoint not found' },
  service_unavailable: { status: 503, title: 'Service unavailable' },
  internal_error: { status: 500, title: 'Internal server error' },
} as const satisfies Record<string, { status: number; title: string }>;

export type ErrorCode = keyof typeof ERROR_CATALOGUE;

export interface FieldError {
  path: string;
  message: string;
}

/** A domain error: thrown anywhere in lib/, turned into a response or message in exactly one place per surface. */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly errors?: FieldError[];
  readonly headers?: Record<string, string>;

  constructor(code: ErrorCode, detail: string, options: { errors?: FieldError[]; headers?: Record<string, string> } = {}) {
    super(detail);
    this.name = 'AppError';
    this.code = code;
    this.errors = options.errors;
    this.headers = options.headers;
  }

  get status(): number {
    return ERROR_CATALOGUE[this.code].status;
  }
}

export function isAppError(error: unknown): error is AppError {
  return error instanceof AppError;
}
