/**
 * Typed errors. Every error the API answers is an RFC 9457 problem with a stable `code`; the class follows the HTTP
 * status, so code that does not know a new `code` still handles it by its class.
 */
export interface FieldError {
  path: string;
  message: string;
}

/** Base class of every error this package throws. */
export class CryptoInvoicingError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
  }
}

export interface APIErrorInit {
  status: number;
  code: string;
  message: string;
  requestId: string | null;
  errors?: FieldError[];
  type?: string;
  headers: Headers;
}

/** The API answered with an error status. */
export class APIError extends CryptoInvoicingError {
  /** HTTP status, e.g. 400. */
  readonly status: number;
  /** Stable machine-readable code, e.g. `validation_failed` (`unknown_error` when the body was not a problem). */
  readonly code: string;
  /** The `Request-Id` of the failed request (req_…): quote it to support. */
  readonly requestId: string | null;
  /** Present with `validation_failed`: one entry per invalid field. */
  readonly errors: FieldError[] | undefined;
  /** Link to the documentation of `code`. */
  readonly type: string | undefined;
  readonly headers: Headers;

  constructor(init: APIErrorInit) {
    super(init.message);
    this.status = init.status;
    this.code = init.code;
    this.requestId = init.requestId;
    this.errors = init.errors;
    this.type = init.type;
    this.headers = init.headers;
  }
}

/** 400, 405, 408, 413, 415, 422: the request itself is wrong; sending it again changes nothing. */
export class InvalidRequestError extends APIError {}
/** 401: no key, an unknown, revoked or expired key. */
export class AuthenticationError extends APIError {}
/** 403: the key lacks a scope, the address is not allowed, or the plan has no API access. */
export class PermissionError extends APIError {}
/** 404. */
export class NotFoundError extends APIError {}
/** 409: the resource's state forbids the change, or the Idempotency-Key was used for another request. */
export class ConflictError extends APIError {}
/** 429: per-second or monthly limit. `retryAfter` is in seconds. */
export class RateLimitError extends APIError {
  get retryAfter(): number | null {
    const value = Number(this.headers.get('retry-after'));
    return Number.isFinite(value) && value > 0 ? value : null;
  }
}

/** No response: the connection failed or was closed before an answer arrived. */
export class APIConnectionError extends CryptoInvoicingError {}
/** No response within `timeoutMs`. */
export class APIConnectionTimeoutError extends APIConnectionError {}

/** A webhook's signature, timestamp or body did not verify. */
export class SignatureVerificationError extends CryptoInvoicingError {}

function classFor(status: number): typeof APIError {
  if (status === 401) return AuthenticationError;
  if (status === 403) return PermissionError;
  if (status === 404) return NotFoundError;
  if (status === 409) return ConflictError;
  if (status === 429) return RateLimitError;
  if (status >= 400 && status < 500) return InvalidRequestError;
  return APIError;
}

/** The typed error for one error response (its body already read as text). */
export function errorFromResponse(status: number, headers: Headers, text: string): APIError {
  let problem: {
    code?: unknown;
    detail?: unknown;
    title?: unknown;
    request_id?: unknown;
    errors?: unknown;
    type?: unknown;
  } = {};
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed && typeof parsed === 'object') problem = parsed;
  } catch {
    // not JSON (a proxy's error page): the status still classifies it
  }
  const str = (value: unknown) => (typeof value === 'string' ? value : undefined);
  const code = str(problem.code) ?? 'unknown_error';
  const message = str(problem.detail) ?? str(problem.title) ?? `HTTP ${status}`;
  const ErrorClass = classFor(status);
  return new ErrorClass({
    status,
    code,
    message,
    requestId: str(problem.request_id) ?? headers.get('request-id'),
    errors: Array.isArray(problem.errors) ? (problem.errors as FieldError[]) : undefined,
    type: str(problem.type),
    headers,
  });
}
