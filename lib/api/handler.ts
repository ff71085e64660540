import { z } from 'zod';
import { AppError, isAppError } from '../errors';
import { noteApiKey } from './access-log';
import { authenticateRequest } from './authenticate';
import { clientAddress } from '../http/client-address';
import { isDatabaseUnavailable } from '../db-unavailable';
import type { KeyIdentity } from '../keys/authorize';
import { logRequest } from '../request-log/writer';
import { parseJsonText, readBodyText } from './body';
import type { AnyEndpoint, EndpointContext } from './endpoint';
import type { IdempotencyClaim } from '../idempotency/record';
import { tenantOfKey } from '../tenant';
import { runIdempotently, readIdempotencyKey, requestFingerprint, type StoredResponse } from './idempotency';
import { problemBody, problemResponse } from './problem';
import { newRequestId } from './request-id';
import { fieldErrors, summarize } from './validation';

type RouteContext = { params: Promise<Record<string, string | string[] | undefined>> };
export type RouteHandler = (request: Request, context: RouteContext) => Promise<Response>;

function parseOrThrow<T extends z.ZodType>(schema: T, input: unknown): z.output<T> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const { errors, total } = fieldErrors(result.error);
  throw new AppError('validation_failed', summarize(errors, total), { errors });
}

type Outcome<T> = { ok: true; value: T } | { ok: false; error: unknown };

/** One rule for every operation: a query parameter the operation does not define is a 400 naming it. */
export const NO_QUERY = z.strictObject({});

/**
 * Step 7 for the path parameters and query: parsed before authentication, because an endpoint's read
 * is built from them, but a failure is only thrown once steps 1–6 have passed.
 */
async function parseLocation(
  endpoint: AnyEndpoint,
  request: Request,
  context: RouteContext,
): Promise<Outcome<{ params: unknown; query: unknown }>> {
  try {
    const params: unknown = endpoint.params ? parseOrThrow(endpoint.params, await context.params) : {};
    const query: unknown = parseOrThrow(
      endpoint.query ?? NO_QUERY,
      Object.fromEntries(new URL(request.url).searchParams),
    );
    return { ok: true, value: { params, query } };
  } catch (error) {
    return { ok: false, error };
  }
}

/**
 * The body's bytes are read BEFORE authentication, so a body that trickles in past the time limit ends as a
 * 408 that was never counted and never touched the database; a too-large body is remembered and refused after
 * steps 1–6, like any other step-7 error.
 */
async function readBody(endpoint: AnyEndpoint, request: Request): Promise<Outcome<string | undefined>> {
  if (!endpoint.body) return { ok: true, value: undefined };
  try {
    return { ok: true, value: await readBodyText(request) };
  } catch (error) {
    if (isAppError(error) && error.code === 'request_timeout') throw error;
    return { ok: false, error };
  }
}

/** Step 7 for the body, after authentication. */
function parseBody(endpoint: AnyEndpoint, text: Outcome<string | undefined>, contentType: string | null) {
  if (!text.ok) throw text.error;
  const rawBody = endpoint.body ? (parseJsonText(text.value ?? '', contentType) ?? {}) : undefined;
  const body: unknown = endpoint.body ? parseOrThrow(endpoint.body, rawBody) : undefined;
  return { body, rawBody };
}

/** Runs the handler; domain refusals (404, 409, 422) become a stored outcome, anything else propagates. */
async function execute(
  endpoint: AnyEndpoint,
  ctx: EndpointContext<unknown, unknown, unknown, unknown>,
): Promise<StoredResponse> {
  try {
    return { status: endpoint.successStatus, body: JSON.stringify(await endpoint.handler(ctx)) };
  } catch (error) {
    // A 5xx is never stored (it is worth retrying with the same Idempotency-Key): it goes out through
    // errorResponse, with its own headers (rate_unavailable's Retry-After).
    if (!isAppError(error) || error.status >= 500) throw error;
    return {
      status: error.status,
      body: JSON.stringify(problemBody(error.code, error.message, ctx.requestId, error.errors)),
    };
  }
}

/**
 * The one wrapper every /v1 operation goes through: authenticate and meter (steps 1–6), validate (step 7),
 * run the handler — at most once per Idempotency-Key on POST — and turn any error into a problem response.
 * Unknown errors become a bare 500/503 with no details. An endpoint's `read` travels in the
 * authentication statement; the handler sees it only after every check of steps 1–7 has passed.
 */
export function withApiKey(endpoint: AnyEndpoint): RouteHandler {
  return async (request, context) => {
    const started = performance.now();
    const seen: { identity: KeyIdentity | null } = { identity: null };
    const response = await handle(endpoint, request, context, seen);
    if (seen.identity) recordRequest(seen.identity, request, response, started);
    return response;
  };
}

/** Queues the request-log entry (lib/request-log): no secret, header or body, only what the log shows. */
function recordRequest(identity: KeyIdentity, request: Request, response: Response, started: number): void {
  const idempotencyKey = request.method === 'POST' ? request.headers.get('idempotency-key') : null;
  logRequest({
    workspaceId: identity.workspaceId,
    environment: identity.environment,
    keyId: identity.id,
    keyPrefix: identity.prefix,
    method: request.method,
    path: new URL(request.url).pathname.slice(0, 512),
    status: response.status,
    durationMs: Math.max(0, Math.round(performance.now() - started)),
    requestId: response.headers.get('request-id') ?? '',
    idempotencyKey: idempotencyKey ? idempotencyKey.slice(0, 255) : null,
    ip: clientAddress(request.headers.get('x-forwarded-for')),
    at: new Date(),
  });
}

async function handle(
  endpoint: AnyEndpoint,
  request: Request,
  context: RouteContext,
  seen: { identity: KeyIdentity | null },
): Promise<Response> {
  const requestId = newRequestId();
  const now = new Date();
  let headers: Record<string, string> = {};
  try {
    const text = await readBody(endpoint, request);
    const location = await parseLocation(endpoint, request, context);
    const auth = await authenticateRequest(request, {
      scope: endpoint.scope,
      exemptFromMonthlyLimit: endpoint.exemptFromMonthlyLimit === true,
      now,
      // A literal, not `{ ...location.value, now }`: V8 gives a spread copy a map outside the transition tree,
      // so adding `now` to it made a fresh hidden class on every request (--log-maps).
      read: location.ok ? endpoint.read?.({ params: location.value.params, query: location.value.query, now }) : null,
      seen,
    });
    headers = auth.headers;
    noteApiKey(request, auth.authorization.key.id);
    if (!location.ok) throw location.error;
    const { params, query } = location.value;
    const { body, rawBody } = parseBody(endpoint, text, request.headers.get('content-type'));
    const { key, monthlyRequests, read } = auth.authorization;
    const run = (idempotency: IdempotencyClaim | null) =>
      execute(endpoint, { key, monthlyRequests, params, query, body, requestId, now, read, idempotency });

    const idempotencyKey = endpoint.method === 'POST' ? readIdempotencyKey(request.headers) : null;
    if (!idempotencyKey) return storedResponse(await run(null), requestId, headers);
    const tenantKey = { ...tenantOfKey(key), key: idempotencyKey };
    const fingerprint = requestFingerprint(endpoint.method, new URL(request.url).pathname, rawBody);
    const options = { status: endpoint.successStatus, at: now, render: endpoint.renderStored };
    const outcome = await runIdempotently(tenantKey, fingerprint, options, run);
    return storedResponse(
      outcome.response,
      requestId,
      outcome.replayed ? { ...headers, 'Idempotent-Replayed': 'true' } : headers,
    );
  } catch (error) {
    return errorResponse(error, requestId, headers);
  }
}

function storedResponse(response: StoredResponse, requestId: string, headers: Record<string, string>): Response {
  return new Response(response.body, {
    status: response.status,
    headers: {
      'Content-Type': response.status >= 400 ? 'application/problem+json' : 'application/json',
      'Cache-Control': 'no-store',
      'Request-Id': requestId,
      ...headers,
    },
  });
}

export function errorResponse(error: unknown, requestId: string, headers: Record<string, string> = {}): Response {
  if (isAppError(error)) {
    return problemResponse(error.code, error.message, requestId, {
      errors: error.errors,
      headers: { ...headers, ...error.headers },
    });
  }
  const unavailable = isDatabaseUnavailable(error);
  // Log what an operator needs to find the failure; never the request's headers or body.
  console.error(
    JSON.stringify({
      level: 'error',
      request_id: requestId,
      error: error instanceof Error ? error.name : typeof error,
      message: error instanceof Error ? error.message.slice(0, 500) : undefined,
    }),
  );
  // The RateLimit headers of an authenticated request stay on its 500/503 too (docs/api.md: every authenticated response).
  return unavailable
    ? problemResponse('service_unavailable', 'The service is temporarily unavailable. Retry shortly', requestId, {
        headers: { ...headers, 'Retry-After': '1' },
      })
    : problemResponse(
        'internal_error',
        'An unexpected error occurred. Quote the request id when contacting support',
        requestId,
        { headers },
      );
}
