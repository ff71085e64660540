import { env, publicUrl } from '../env';
import { ERROR_CATALOGUE, type ErrorCode } from '../errors';
import { SCOPE_DESCRIPTIONS } from '../scopes';
import type { AnyEndpoint } from './endpoint';
import { ENDPOINTS } from './endpoints';
import { IDEMPOTENCY_KEY_MAX_LENGTH } from './idempotency';
import { converter, type Converter, type JsonSchema } from './zod-to-json-schema';
import { ERRORS_PAGE_PATH, problemTypeUri, ProblemSchema } from './problem';
import { EventResource } from '../events/schemas';
import { EVENT_TYPES, EVENT_TYPE_NAMES } from '../events/types';

/**
 * The OpenAPI 3.1 document, generated from the endpoint registry, its zod schemas and the error
 * catalogue: the same objects the handlers validate with, so the document cannot drift.
 */
export const OPENAPI_PATH = '/v1/openapi.json';
export const VERSIONING_PAGE_PATH = '/docs/versioning';

const AUTH_ERRORS: ErrorCode[] = [
  'missing_api_key',
  'invalid_api_key',
  'revoked_api_key',
  'expired_api_key',
  'ip_not_allowed',
  'plan_without_api_access',
  'rate_limited',
];
const SERVER_ERRORS: ErrorCode[] = ['internal_error', 'service_unavailable'];
const IDEMPOTENCY_ERRORS: ErrorCode[] = ['validation_failed', 'idempotency_key_reused', 'idempotency_key_in_use'];
const BODY_ERRORS: ErrorCode[] = [
  'validation_failed',
  'malformed_json',
  'unsupported_media_type',
  'payload_too_large',
  'request_timeout',
];

function errorCodesOf(endpoint: AnyEndpoint): ErrorCode[] {
  // Unknown query parameters are a 400 on every operation (lib/api/handler.ts).
  const codes = new Set<ErrorCode>([...AUTH_ERRORS, 'validation_failed', ...endpoint.errors, ...SERVER_ERRORS]);
  if (!endpoint.exemptFromMonthlyLimit) codes.add('monthly_limit_exceeded');
  if (endpoint.scope) codes.add('missing_scope');
  if (endpoint.method === 'POST') IDEMPOTENCY_ERRORS.forEach((code) => codes.add(code));
  if (endpoint.body) BODY_ERRORS.forEach((code) => codes.add(code));
  // A path segment that is not valid percent-encoding names no operation (answered before routing, see proxy.ts).
  if (endpoint.params) codes.add('route_not_found');
  return [...codes];
}

const header = (description: string, schema: JsonSchema = { type: 'string', maxLength: 1024 }, required = false) => ({
  description,
  required,
  schema,
});

const HEADERS = {
  RequestId: header(
    'Unique id of this request (req_…); quote it to support',
    { type: 'string', pattern: '^req_[0-9A-Za-z]+$', maxLength: 64 },
    true,
  ),
  RateLimitPolicy: header(
    'Quota policies, IETF ratelimit-headers draft: "per-second" (the key\'s token bucket), "workspace" (the bucket shared by the workspace\'s keys of this environment, twice the per-second figure) and "monthly" (per workspace)',
    undefined,
    true,
  ),
  RateLimit: header('Remaining quota and seconds to reset for each policy', undefined, true),
  // Present on every response of an authenticated request; absent when the request failed before (401, unknown route).
  RateLimitPolicyIfAuthenticated: header(
    'As RateLimit-Policy; present once the key was authenticated and its plan has API access',
  ),
  RateLimitIfAuthenticated: header('As RateLimit; present once the key was authenticated and its plan has API access'),
  // At most the seconds to the next UTC month (monthly_limit_exceeded).
  RetryAfter: header(
    'Seconds to wait before retrying',
    { type: 'integer', format: 'int32', minimum: 1, maximum: 31 * 24 * 3600 },
    true,
  ),
  IdempotentReplayed: header(
    '"true" when the response is the stored result of an earlier request with the same Idempotency-Key',
    { type: 'string', enum: ['true'] },
  ),
  Allow: header(
    'Methods the path supports, e.g. "GET, POST"',
    { type: 'string', pattern: '^[A-Z]+(, [A-Z]+)*$', maxLength: 64 },
    true,
  ),
  AcceptPost: header(
    'With `unsupported_media_type`: the media type the operation accepts',
    { type: 'string', enum: ['application/json'] },
    true,
  ),
  WWWAuthenticate: header(
    'Bearer challenge (RFC 6750)',
    { type: 'string', pattern: '^Bearer realm="api"', maxLength: 256 },
    true,
  ),
  WWWAuthenticateInsufficientScope: header(
    'With `missing_scope`: Bearer challenge naming the scope the operation needs (RFC 6750 §3), e.g. `Bearer realm="api", error="insufficient_scope", scope="invoices:write"`',
    { type: 'string', pattern: '^Bearer realm="api", error="insufficient_scope", scope="[a-z:]+"$', maxLength: 256 },
  ),
};

const ref = (name: keyof typeof HEADERS) => ({ $ref: `#/components/headers/${name}` });

function problemExample(code: ErrorCode) {
  const { status, title } = ERROR_CATALOGUE[code];
  const example = {
    type: problemTypeUri(code),
    title,
    status,
    detail: ERROR_CATALOGUE[code].meaning,
    code,
    request_id: 'req_3kTz9QwErTyUiOpAsDfGhJkL',
  };
  if (code !== 'validation_failed') return example;
  return {
    ...example,
    detail: 'limit: limit must be an integer from 1 to 100 (and 1 more)',
    errors: [
      { path: 'limit', message: 'limit must be an integer from 1 to 100' },
      { path: 'expand', message: 'Unknown field expand' },
    ],
  };
}

/** A problem response body: the Problem component, with the codes this response can carry today (an open set). */
function problemContent(codes: ErrorCode[]) {
  return {
    'application/problem+json': {
      schema: {
        allOf: [{ $ref: '#/components/schemas/Problem' }],
        properties: { code: { 'x-extensible-enum': codes } },
      },
      examples: Object.fromEntries(
        codes.map((code) => [code, { summary: ERROR_CATALOGUE[code].title, value: problemExample(code) }]),
      ),
    },
  };
}

function errorResponses(codes: ErrorCode[]) {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes) {
    const { status } = ERROR_CATALOGUE[code];
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const responses: Record<string, unknown> = {};
  for (const [status, statusCodes] of [...byStatus].sort(([a], [b]) => a - b)) {
    const headers: Record<string, unknown> = { 'Request-Id': ref('RequestId') };
    if (status !== 401) {
      headers['RateLimit-Policy'] = ref('RateLimitPolicyIfAuthenticated');
      headers.RateLimit = ref('RateLimitIfAuthenticated');
    }
    if (status === 401) headers['WWW-Authenticate'] = ref('WWWAuthenticate');
    if (statusCodes.includes('missing_scope')) headers['WWW-Authenticate'] = ref('WWWAuthenticateInsufficientScope');
    if (status === 429 || status === 503) headers['Retry-After'] = ref('RetryAfter');
    if (status === 415) headers['Accept-Post'] = ref('AcceptPost');
    responses[String(status)] = {
      description: statusCodes.map((code) => `\`${code}\`: ${ERROR_CATALOGUE[code].title}`).join('; '),
      headers,
      content: problemContent(statusCodes),
    };
  }
  return responses;
}

function pascal(operationId: string): string {
  return operationId.charAt(0).toUpperCase() + operationId.slice(1);
}

function parametersOf(endpoint: AnyEndpoint, convert: Converter) {
  const parameters: unknown[] = [];
  for (const [location, schema] of [
    ['path', endpoint.params],
    ['query', endpoint.query],
  ] as const) {
    if (!schema) continue;
    const json = convert(schema, 'input');
    const properties = (json.properties ?? {}) as Record<string, JsonSchema>;
    const required = new Set((json.required ?? []) as string[]);
    for (const [name, property] of Object.entries(properties)) {
      const { description, ...rest } = property;
      parameters.push({
        name,
        in: location,
        required: location === 'path' || required.has(name),
        description,
        schema: rest,
      });
    }
  }
  if (endpoint.method === 'POST') {
    parameters.push({
      name: 'Idempotency-Key',
      in: 'header',
      required: false,
      description: 'Makes the request safe to retry: the same key and body within 24 h replays the first response',
      schema: { type: 'string', minLength: 1, maxLength: IDEMPOTENCY_KEY_MAX_LENGTH, pattern: '^[\\x21-\\x7e]+$' },
    });
  }
  return parameters;
}

function operationOf(endpoint: AnyEndpoint, convert: Converter) {
  const successHeaders: Record<string, unknown> = {
    'Request-Id': ref('RequestId'),
    'RateLimit-Policy': ref('RateLimitPolicy'),
    RateLimit: ref('RateLimit'),
  };
  if (endpoint.method === 'POST') successHeaders['Idempotent-Replayed'] = ref('IdempotentReplayed');
  const scopeNote = endpoint.scope ? `Requires scope \`${endpoint.scope}\`.` : 'Requires no scope.';
  const name = pascal(endpoint.operationId);
  return {
    operationId: endpoint.operationId,
    summary: endpoint.summary,
    description: [endpoint.description, scopeNote].filter(Boolean).join('\n\n'),
    tags: endpoint.tags,
    security: [{ ApiKeyHeader: [] }, { BearerAuth: [] }],
    ...(endpoint.scope ? { 'x-required-scope': endpoint.scope } : {}),
    parameters: parametersOf(endpoint, convert),
    ...(endpoint.body
      ? {
          requestBody: {
            // An empty body reads as {} (lib/api/handler.ts): required only when the schema has required fields.
            required: endpoint.body.safeParse({}).success === false,
            content: { 'application/json': { schema: convert(endpoint.body, 'input', `${name}Request`) } },
          },
        }
      : {}),
    responses: {
      [String(endpoint.successStatus)]: {
        description: endpoint.summary,
        headers: successHeaders,
        content: { 'application/json': { schema: convert(endpoint.response, 'output', `${name}Response`) } },
      },
      ...errorResponses(errorCodesOf(endpoint)),
    },
  };
}

/** The responses of a GET, for HEAD: the same statuses and headers, no content. */
function withoutContent(responses: Record<string, { content?: unknown }>) {
  return Object.fromEntries(
    Object.entries(responses).map(([status, { content: _content, ...rest }]) => [status, rest]),
  );
}

/**
 * OPTIONS and HEAD of every path (lib/api/route.ts): OPTIONS answers 204 with `Allow`; HEAD is answered from GET
 * (same checks and headers, no body) or, on a path without GET, is a 405 with `Allow` like every method the
 * path does not support.
 */
function addOptionsAndHead(path: string, item: Record<string, Record<string, unknown>>) {
  const methods = Object.keys(item).map((method) => method.toUpperCase());
  const first = Object.values(item)[0]!;
  const base = pascal(String(first.operationId));
  const pathParameters = ((first.parameters ?? []) as { in: string }[]).filter((parameter) => parameter.in === 'path');
  const shared = { tags: first.tags, security: [], parameters: pathParameters };
  // A path parameter that is not valid percent-encoding names no route: 404 before any handler (proxy.ts).
  const malformedPath = pathParameters.length > 0 ? errorResponses(['route_not_found']) : {};
  item.options = {
    ...shared,
    operationId: `options${base}`,
    summary: `Methods of ${path}`,
    description: `Answers 204 with \`Allow: ${methods.join(', ')}\`, without authentication. Any other method on this path is a 405 \`method_not_allowed\` with the same \`Allow\`.`,
    responses: {
      '204': {
        description: 'The methods of this path',
        headers: { Allow: ref('Allow'), 'Request-Id': ref('RequestId') },
      },
      ...malformedPath,
    },
  };
  const get = item.get;
  item.head = get
    ? {
        ...get,
        operationId: `head${pascal(String(get.operationId))}`,
        summary: `${String(get.summary)} (headers only)`,
        description: 'The same checks, counting and headers as GET, without a body.',
        responses: withoutContent(get.responses as Record<string, { content?: unknown }>),
      }
    : {
        ...shared,
        operationId: `head${base}`,
        summary: `HEAD is not supported on ${path}`,
        description:
          'HEAD is answered from GET; this path has no GET, so HEAD is a 405 like any method it does not support.',
        responses: {
          '405': {
            description: '`method_not_allowed`: Method not allowed (no body: HEAD)',
            headers: { Allow: ref('Allow'), 'Request-Id': ref('RequestId') },
          },
          ...withoutContent(malformedPath as Record<string, { content?: unknown }>),
        },
      };
}

function openApiOperation() {
  return {
    operationId: 'getOpenApiDocument',
    summary: 'This OpenAPI document',
    description:
      'Public: no key, not counted. Served with `Cache-Control: no-store` like every response, so a client never holds a stale contract.',
    tags: ['Meta'],
    security: [],
    responses: {
      '200': {
        description: 'OpenAPI 3.1 document',
        headers: { 'Request-Id': ref('RequestId') },
        content: {
          'application/json': {
            schema: { type: 'object', additionalProperties: true, description: 'An OpenAPI 3.1 document' },
          },
        },
      },
      ...errorResponses(['validation_failed', 'internal_error']),
    },
  };
}

function description(): string {
  const base = publicUrl();
  return [
    'Accept cryptocurrency payments through invoices. Authenticate every request with an API key in `X-API-Key` (preferred) or `Authorization: Bearer`.',
    'Keys are bound to one environment by their prefix (`test_` or `live_`); invoices take the environment of the key that creates them.',
    `Scopes: ${Object.entries(SCOPE_DESCRIPTIONS)
      .map(([scope, text]) => `\`${scope}\` (${text})`)
      .join(', ')}.`,
    `Errors are RFC 9457 problem details with a stable \`code\`, documented at their \`type\` URI ([errors page](${base}${ERRORS_PAGE_PATH})). Codes, enum values and event types are open sets: clients must accept values they do not know.`,
    'Request bodies are JSON: a body with another `Content-Type` is a 415. Unknown query parameters are a 400 on every operation. Every path answers `OPTIONS` (204 with `Allow`); other unsupported methods are a 405 with `Allow`.',
    'Server-to-server only: no CORS headers are sent, so browsers cannot call the API cross-origin (a secret key must never reach a browser).',
    `Versioning and deprecation: what may change inside \`/v1\` and what never will — [versioning policy](${base}${VERSIONING_PAGE_PATH}).`,
  ].join('\n\n');
}

export function buildOpenApiDocument() {
  const components: Record<string, JsonSchema> = {};
  const convert = converter(components);
  convert(ProblemSchema, 'output'); // registers components.schemas.Problem

  const paths: Record<string, Record<string, Record<string, unknown>>> = {};
  for (const endpoint of ENDPOINTS) {
    paths[endpoint.path] ??= {};
    paths[endpoint.path]![endpoint.method.toLowerCase()] = operationOf(endpoint, convert);
  }
  paths[OPENAPI_PATH] = { get: openApiOperation() };
  for (const [path, item] of Object.entries(paths)) addOptionsAndHead(path, item);

  const eventSchema = convert(EventResource, 'output');
  const webhooks = Object.fromEntries(
    EVENT_TYPE_NAMES.map((type) => [
      type,
      {
        post: {
          operationId: `webhook_${type.replace(/\W/g, '_')}`,
          summary: type,
          description: `${EVENT_TYPES[type]} Sent to each enabled endpoint of the event's workspace and environment subscribed to \`${type}\`, signed per Standard Webhooks (docs/webhooks.md). Respond 2xx within 10 s; anything else is retried.`,
          tags: ['Webhooks'],
          security: [],
          parameters: [
            {
              name: 'webhook-id',
              in: 'header',
              required: true,
              description: 'The event id, the same on every retry: de-duplicate on it',
              schema: { type: 'string' },
            },
            {
              name: 'webhook-timestamp',
              in: 'header',
              required: true,
              description: 'Unix seconds of this attempt',
              schema: { type: 'string', pattern: '^[0-9]+$' },
            },
            {
              name: 'webhook-signature',
              in: 'header',
              required: true,
              description:
                'Space-separated `v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">` (two during a secret roll)',
              schema: { type: 'string' },
            },
          ],
          requestBody: {
            required: true,
            content: {
              'application/json': {
                schema: { allOf: [eventSchema, { type: 'object', properties: { type: { const: type } } }] },
              },
            },
          },
          responses: { '2XX': { description: 'Received; any other answer (or none within 10 s) is retried' } },
        },
      },
    ]),
  );

  return {
    openapi: '3.1.0',
    info: {
      title: 'Crypto invoicing API',
      // Semver of the document (docs/versioning.md): 1.1 added 415, strict query parameters everywhere, OPTIONS/HEAD.
      version: '1.1.0',
      description: description(),
      contact: { name: 'Developer portal', url: publicUrl() },
    },
    servers: [
      {
        url: publicUrl(),
        description: env().PUBLIC_URL
          ? 'Production: this deployment (PUBLIC_URL); test_ and live_ keys both call it'
          : 'Local: PUBLIC_URL is not set, so the local address on PORT',
        'x-internal': false,
      },
    ],
    tags: [
      { name: 'Keys', description: 'The calling key' },
      { name: 'Invoices', description: 'Create, list, read and cancel invoices' },
      { name: 'Test mode', description: 'Simulate payments of test invoices' },
      { name: 'Meta', description: 'This document' },
      { name: 'Events', description: 'Everything that happened to your invoices, kept 30 days' },
      { name: 'Webhooks', description: 'Events as signed POSTs to your endpoints (configured in the portal)' },
      { name: 'Rates', description: 'The exchange rates invoices priced in USD or EUR are converted at' },
    ],
    paths,
    webhooks,
    components: {
      schemas: components,
      headers: HEADERS,
      securitySchemes: {
        ApiKeyHeader: { type: 'apiKey', in: 'header', name: 'X-API-Key', description: 'test_… or live_… secret key' },
        BearerAuth: { type: 'http', scheme: 'bearer', description: 'The same key as a Bearer token' },
      },
    },
  };
}
