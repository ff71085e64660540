/**
 * The error catalogue: every error code the product can return, with its HTTP status, title, what it means and
 * what the caller should do. The API's problem responses, the served errors page (/docs/errors), the portal's
 * messages, the admin CLI and the OpenAPI document all read it. `api: false` marks codes only the portal and
 * the admin CLI use: they never appear in a /v1 response, so the OpenAPI document does not list them.
 */
export const ERROR_CATALOGUE = {
  missing_api_key: {
    status: 401,
    title: 'Missing API key',
    api: true,
    meaning: 'The request carried no API key.',
    action:
      'Send the key in the X-API-Key header (or Authorization: Bearer). Keys are never accepted in the query string.',
  },
  invalid_api_key: {
    status: 401,
    title: 'Invalid API key',
    api: true,
    meaning: 'The key is malformed, fails its checksum, or does not exist.',
    action:
      'Copy the full key from the portal (Keys page); a key is shown only once, so create a new one if it is lost.',
  },
  revoked_api_key: {
    status: 401,
    title: 'Revoked API key',
    api: true,
    meaning: 'The key was revoked in the portal.',
    action: 'Use another active key or create a new one.',
  },
  expired_api_key: {
    status: 401,
    title: 'Expired API key',
    api: true,
    meaning: 'The key passed its expiry date, or the grace period after it was rolled ended.',
    action: 'Use the key that replaced it (shown once when it was rolled) or create a new one.',
  },
  ip_not_allowed: {
    status: 403,
    title: 'IP address not allowed',
    api: true,
    meaning: "The request came from an address outside the key's IP allowlist.",
    action: 'Call from an allowed address, or change the allowlist by creating a key with the right CIDRs.',
  },
  plan_without_api_access: {
    status: 403,
    title: 'Plan without API access',
    api: true,
    meaning: "The workspace's plan does not include API access.",
    action: 'Change the plan on the Billing page of the portal.',
  },
  missing_scope: {
    status: 403,
    title: 'Missing scope',
    api: true,
    meaning:
      'The key lacks the scope this operation needs (named in detail and in the WWW-Authenticate scope parameter).',
    action: 'Use a key that has the scope, or create one with it.',
  },
  test_mode_only: {
    status: 403,
    title: 'Test mode only',
    api: true,
    meaning: 'The operation exists only for test keys and test invoices.',
    action: 'Call it with a test_ key.',
  },
  monthly_limit_exceeded: {
    status: 429,
    title: 'Monthly request limit exceeded',
    api: true,
    meaning: "The workspace has used its plan's requests for this UTC month.",
    action: 'Wait for Retry-After (the start of next month) or upgrade the plan. GET /v1/me still answers.',
  },
  rate_limited: {
    status: 429,
    title: 'Rate limit exceeded',
    api: true,
    meaning: 'The key sent more requests in this second than its plan allows.',
    action: 'Retry after the Retry-After delay; spread requests out.',
  },
  validation_failed: {
    status: 400,
    title: 'Validation failed',
    api: true,
    meaning: 'A path parameter, query parameter, header or body field is invalid or unknown; errors[] names each one.',
    action: 'Fix each field listed in errors[] (path and message) and send the request again.',
  },
  malformed_json: {
    status: 400,
    title: 'Malformed JSON body',
    api: true,
    meaning: 'The body is not valid JSON.',
    action: 'Send a JSON object with Content-Type: application/json.',
  },
  unsupported_media_type: {
    status: 415,
    title: 'Unsupported media type',
    api: true,
    meaning: 'The request has a body whose Content-Type is not application/json.',
    action:
      'Send the body as JSON with Content-Type: application/json (a charset parameter is allowed), or send no body.',
  },
  payload_too_large: {
    status: 413,
    title: 'Payload too large',
    api: true,
    meaning: 'The body is larger than 64 KiB.',
    action: 'Send a smaller body (metadata and description have their own, much smaller, limits).',
  },
  request_timeout: {
    status: 408,
    title: 'Request timeout',
    api: true,
    meaning: 'The request body did not arrive in time; the request was not counted.',
    action: 'Send the whole body promptly and retry.',
  },
  route_not_found: {
    status: 404,
    title: 'Route not found',
    api: true,
    meaning: 'No operation exists at this path.',
    action: 'Check the path against the OpenAPI document at /v1/openapi.json.',
  },
  method_not_allowed: {
    status: 405,
    title: 'Method not allowed',
    api: true,
    meaning: 'The path exists but does not support this method.',
    action: 'Use one of the methods in the Allow header.',
  },
  invoice_not_found: {
    status: 404,
    title: 'Invoice not found',
    api: true,
    meaning: "No invoice with this id exists in the key's workspace and environment.",
    action: 'Check the id, and that the key has the same environment (test_ or live_) as the invoice.',
  },
  invoice_not_cancellable: {
    status: 409,
    title: 'Invoice not cancellable',
    api: true,
    meaning: 'Only a pending invoice can be cancelled; this one is paid, expired or already cancelled.',
    action: 'Read the invoice to see its status; no retry will succeed.',
  },
  invoice_not_payable: {
    status: 409,
    title: 'Invoice not payable',
    api: true,
    meaning: 'Only a pending invoice can be paid; this one is paid, expired or cancelled.',
    action: 'Read the invoice to see its status; create a new invoice to collect again.',
  },
  event_not_found: {
    status: 404,
    title: 'Event not found',
    api: true,
    meaning: "No event with this id exists in the key's workspace and environment.",
    action: 'Check the id, and that the key has the same environment (test_ or live_) as the event.',
  },
  wallet_not_configured: {
    status: 422,
    title: 'Wallet not configured',
    api: true,
    meaning: 'A live invoice needs a receiving wallet for its network and none is configured.',
    action: 'Add a wallet for the network on the Wallets page of the portal.',
  },
  idempotency_key_reused: {
    status: 422,
    title: 'Idempotency key reused',
    api: true,
    meaning: 'The Idempotency-Key was used within 24 h for a request with a different method, path or body.',
    action: 'Use a new Idempotency-Key for a different request.',
  },
  network_not_watched: {
    status: 422,
    title: 'Network not watched',
    api: true,
    meaning:
      'Live invoices can only be created on networks this deployment watches for payments; this one is not watched.',
    action:
      'Create the invoice on a watched network, or ask the operator to set the RPC_URL_<NETWORK> setting named in detail.',
  },
  pay_amounts_exhausted: {
    status: 422,
    title: 'No unique pay amount left',
    api: true,
    meaning:
      'Every exact pay amount near this amount is held by another open invoice on the same wallet, network and asset.',
    action: 'Use a slightly different amount, another wallet, or wait for open invoices to be paid or expire.',
  },
  idempotency_key_in_use: {
    status: 409,
    title: 'Idempotency key in use',
    api: true,
    meaning: 'Requests with the same Idempotency-Key kept racing each other and this one could not settle (rare).',
    action: "Retry shortly with the same key: you will get the first request's response.",
  },
  rate_unavailable: {
    status: 503,
    title: 'Rate unavailable',
    api: true,
    meaning:
      'No fresh exchange rate could be read for an invoice priced in fiat (the price feed is stale, answered a non-positive price, or could not be reached); no invoice was created.',
    action:
      'Retry after Retry-After, with the same Idempotency-Key; or price the invoice in the crypto currency with amount.',
  },
  // Non-API domain errors (portal and admin CLI); statuses are used if they ever reach HTTP.
  path_not_normalized: {
    status: 400,
    title: 'Path not normalised',
    api: false,
    meaning:
      'The request path contains "." or ".." segments (also percent-encoded) or a backslash; the server answers only normalised paths.',
    action: 'Send the path as a browser would after resolving it (no dot segments).',
  },
  not_found: {
    status: 404,
    title: 'Not found',
    api: false,
    meaning: 'The record does not exist in this workspace.',
    action: 'Check the identifier.',
  },
  email_taken: {
    status: 409,
    title: 'Email already registered',
    api: false,
    meaning: 'An account with this email exists.',
    action: 'Sign in instead.',
  },
  invalid_wallet_address: {
    status: 400,
    title: 'Invalid wallet address',
    api: false,
    meaning: 'The address is not valid for the network.',
    action: 'Paste the address again and check the network.',
  },
  wallet_address_claimed: {
    status: 409,
    title: 'Wallet used by another workspace',
    api: false,
    meaning:
      'The address is already the payout wallet of another workspace on this network; a further workspace may use it only after proving control of it.',
    action: "Sign the message shown with the address's key and paste the signature, or use another address.",
  },
  wallet_signature_invalid: {
    status: 400,
    title: 'Signature does not prove control',
    api: false,
    meaning: "The signature given to claim a wallet address is not that address's signature of the claim message.",
    action: 'Sign exactly the message shown, with the key of the address you entered.',
  },
  key_already_revoked: {
    status: 409,
    title: 'Key already revoked',
    api: false,
    meaning: 'The key was revoked earlier.',
    action: 'Nothing to do.',
  },
  plan_not_self_serve: {
    status: 403,
    title: 'Plan set by the operator',
    api: false,
    meaning: 'This plan cannot be chosen in the portal (SELF_SERVE_PLANS); the operator sets it.',
    action: 'Ask the operator to run npm run admin -- plan:set for your workspace.',
  },
  too_many_attempts: {
    status: 429,
    title: 'Too many attempts',
    api: false,
    meaning: 'Too many failed sign-ins or sign-ups from this address.',
    action: 'Wait a few minutes and try again.',
  },
  current_password_incorrect: {
    status: 400,
    title: 'Current password incorrect',
    api: false,
    meaning: 'The current password given to change the password is wrong.',
    action: 'Enter your current password.',
  },
  step_up_required: {
    status: 403,
    title: 'Confirm it is you',
    api: false,
    meaning:
      'Changing a payout wallet, creating or rolling a live API key, connecting or disconnecting GitHub sign-in, and turning two-factor sign-in on or off need fresh proof of identity (STEP_UP_WINDOW_SECONDS, 5 minutes); a session alone is not enough.',
    action:
      'Enter your password again (and your authentication code when two-factor sign-in is on), then repeat the change.',
  },
  step_up_failed: {
    status: 400,
    title: 'Re-authentication failed',
    api: false,
    meaning: 'The password or the authentication code given to confirm a change is not correct.',
    action: 'Enter your current password and a current code from your authenticator app (or an unused recovery code).',
  },
  role_forbidden: {
    status: 403,
    title: 'Not allowed for your role',
    api: false,
    meaning:
      'Your role in this workspace does not allow this (the role table is in docs/portal.md, Members and roles).',
    action: 'Ask an Owner or Admin of the workspace to do it, or to change your role.',
  },
  last_owner: {
    status: 409,
    title: 'Last Owner',
    api: false,
    meaning:
      'A workspace always keeps at least one Owner: its last Owner cannot be removed, leave or be given another role.',
    action: 'Transfer ownership to another member first.',
  },
  already_member: {
    status: 409,
    title: 'Already a member',
    api: false,
    meaning: 'This person is already a member of the workspace.',
    action: 'Change their role on the Members page instead.',
  },
  invitation_invalid: {
    status: 404,
    title: 'Invitation not valid',
    api: false,
    meaning:
      'The invitation link is unknown, was revoked, was already used, or has expired (links are valid 7 days, once).',
    action: 'Ask the workspace to send a new invitation.',
  },
  invitation_wrong_account: {
    status: 403,
    title: 'Invitation for another email',
    api: false,
    meaning: 'The invitation is bound to another email address than the account signed in.',
    action: 'Sign out, then sign in (or sign up) with the email the invitation was sent to.',
  },
  two_factor_code_invalid: {
    status: 400,
    title: 'Authentication code incorrect',
    api: false,
    meaning: 'The code does not match the authenticator app (wrong, expired, or already used).',
    action: 'Enter the code your authenticator app shows now.',
  },
  two_factor_already_enabled: {
    status: 409,
    title: 'Two-factor sign-in already on',
    api: false,
    meaning: 'Two-factor sign-in is already enabled for this account.',
    action: 'Turn it off first to enrol another authenticator.',
  },
  two_factor_not_enabled: {
    status: 409,
    title: 'Two-factor sign-in not on',
    api: false,
    meaning: 'Two-factor sign-in is not enabled (or its enrolment was not started) for this account.',
    action: 'Start the enrolment on the Account page.',
  },
  only_sign_in_method: {
    status: 409,
    title: 'Only way to sign in',
    api: false,
    meaning: 'The account has no password, so the sign-in provider is its only way in and cannot be disconnected.',
    action: 'Keep it connected: removing it would lock the account out.',
  },
  key_not_active: {
    status: 409,
    title: 'Key not active',
    api: false,
    meaning: 'Only an active key can be rolled; this one is revoked or expired.',
    action: 'Create a new key instead.',
  },
  key_limit_reached: {
    status: 409,
    title: 'Active key limit reached',
    api: false,
    meaning: 'The workspace has as many active keys as it may (MAX_ACTIVE_KEYS_PER_WORKSPACE).',
    action: 'Revoke keys you no longer use, then create the new one.',
  },
  key_creation_throttled: {
    status: 429,
    title: 'Too many keys created',
    api: false,
    meaning: 'Keys are being created faster than allowed (KEY_CREATION_PER_MINUTE).',
    action: 'Wait a minute and try again.',
  },
  webhook_url_refused: {
    status: 400,
    title: 'Webhook URL refused',
    api: false,
    meaning: 'The webhook URL is not allowed (not https, or it resolves to a private, loopback or link-local address).',
    action: 'Use a public https URL.',
  },
  webhook_endpoint_not_found: {
    status: 404,
    title: 'Webhook endpoint not found',
    api: false,
    meaning: 'The webhook endpoint does not exist in this workspace.',
    action: 'Check the identifier.',
  },
  service_unavailable: {
    status: 503,
    title: 'Service unavailable',
    api: true,
    meaning: 'The service lost its database connection for a moment.',
    action: 'Retry after Retry-After; POST requests are safe to retry with the same Idempotency-Key.',
  },
  internal_error: {
    status: 500,
    title: 'Internal server error',
    api: true,
    meaning: 'An unexpected failure; nothing about it is disclosed.',
    action: 'Retry (with the same Idempotency-Key for POST); if it persists, contact support quoting request_id.',
  },
} as const satisfies Record<string, { status: number; title: string; api: boolean; meaning: string; action: string }>;

export type ErrorCode = keyof typeof ERROR_CATALOGUE;

/** The codes a /v1 response can carry, in catalogue order. */
export const API_ERROR_CODES = (Object.keys(ERROR_CATALOGUE) as ErrorCode[]).filter(
  (code) => ERROR_CATALOGUE[code].api,
);

/** A validation problem lists at most this many field errors (a body of unknown keys cannot make it grow unbounded). */
export const MAX_FIELD_ERRORS = 20;

export interface FieldError {
  path: string;
  message: string;
}

/** A domain error: thrown anywhere in lib/, turned into a response or message in exactly one place per surface. */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly errors?: FieldError[];
  readonly headers?: Record<string, string>;

  constructor(
    code: ErrorCode,
    detail: string,
    options: { errors?: FieldError[]; headers?: Record<string, string> } = {},
  ) {
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
