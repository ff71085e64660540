import { z } from 'zod';
import { ERROR_CATALOGUE, type ErrorCode } from '../errors';
import { SCOPE_DESCRIPTIONS } from '../scopes';
import type { AnyEndpoint } from './endpoint';
import { ENDPOINTS } from './endpoints';
import { IDEMPOTENCY_KEY_MAX_LENGTH } from './idempotency';
import { ProblemSchema } from './problem';
import { EventResource } from '../events/schemas';
import { EVENT_TYPES, EVENT_TYPE_NAMES } from '../events/types';

/**
 * The OpenAPI 3.1 document, generated from the endpoint registry, its zod schemas and the error
 * catalogue: the same objects the handlers validate with, so the document cannot drift.
 */
type JsonSchema = Record<string, unknown>;

const AUTH_ERRORS: ErrorCode[] = ['missing_api_key', 'invalid_api_key', 'revoked_api_key', 'plan_without_api_access', 'rate_limited'];
const SERVER_ERRORS: ErrorCode[] = ['internal_error', 'service_unavailable'];
const IDEMPOTENCY_ERRORS: ErrorCode[] = ['validation_failed', 'idempotency_key_reused', 'idempotency_key_in_use'];

/** Converts a zod schema; schemas with an `id` become components and are referenced. */
function converter(components: Record<string, JsonSchema>) {
  return (schema: z.ZodType, io: 'input' | 'output'): JsonSchema => {
    const json = z.toJSONSchema(schema, { target: 'draft-2020-12', io, unrepresentable: 'any' }) as JsonSchema;
    delete json.$schema;
    const rewritten = JSON.parse(JSON.stringify(json).replaceAll('"#/$defs/', '"#/components/schemas/')) as JsonSchema;
    const defs = (rewritten.$defs ?? {}) as Record<string, JsonSchema>;
    delete rewritten.$defs;
    for (const [id, def] of Object.entries(defs)) components[id] ??= def;
    return rewritten;
  };
}

function errorCodesOf(endpoint: AnyEndpoint): ErrorCode[] {
  const codes = new Set<ErrorCode>([...AUTH_ERRORS, ...endpoint.errors, ...SERVER_ERRORS]);
  if (!endpoint.exemptFromMonthlyLimit) codes.add('monthly_limit_exceeded');
  if (endpoint.scope) codes.add('missing_scope');
  if (endpoint.method === 'POST') IDEMPOTENCY_ERRORS.forEach((code) => codes.add(code));
  if (endpoint.body) ['validation_failed', 'malformed_json', 'payload_too_large'].forEach((code) => codes.add(code as ErrorCode));
  if (endpoint.query || endpoint.params) codes.add('validation_failed');
  // A path segment that is not valid percent-encoding names no operation (answered before routing, see proxy.ts).
  if (endpoint.params) codes.add('route_not_found');
  return [...codes];
}

const header = (description: string, schema: JsonSchema = { type: 'string' }, required = false) => ({ description, required, schema });

const HEADERS = {
  RequestId: header('Unique id of this request (req_…); quote it to support', { type: 'string', pattern: '^req_' }, true),
  RateLimitPolicy: header('Quota policies: "per-second" (per key) and "monthly" (per workspace), IETF ratelimit-headers draft', { type: 'string' }, true),
  RateLimit: header('Remaining quota and seconds to reset for each policy', { type: 'string' }, true),
  // Present on every response of an authenticated request; absent when the request failed before (401, unknown route).
  RateLimitPolicyIfAuthenticated: header('As RateLimit-Policy; present once the key was authenticated and its plan has API access'),
  RateLimitIfAuthenticated: header('As RateLimit; present once the key was authenticated and its plan has API access'),
  RetryAfter: header('Seconds to wait before retrying', { type: 'integer', minimum: 1 }, true),
  IdempotentReplayed: header('"true" when the response is the stored result of an earlier request with the same Idempotency-Key'),
  Allow: header('Methods the path supports'),
  WWWAuthenticate: header('Bearer challenge (RFC 6750)', { type: 'string', pattern: '^Bearer realm="api"' }, true),
};

const ref = (name: keyof typeof HEADERS) => ({ $ref: `#/components/headers/${name}` });

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
    if (status === 429 || status === 503) headers['Retry-After'] = ref('RetryAfter');
    responses[String(status)] = {
      description: statusCodes.map((code) => `\`${code}\`: ${ERROR_CATALOGUE[code].title}`).join('; '),
      headers,
      content: {
        'application/problem+json': {
          schema: { $ref: '#/components/schemas/Problem' },
          examples: Object.fromEntries(
            statusCodes.map((code) => [
              code,
              { value: { type: `/docs/errors#${code}`, title: ERROR_CATALOGUE[code].title, status, detail: ERROR_CATALOGUE[code].title, code, request_id: 'req_3kTz9QwErTyUiOpAsDfGhJkL' } },
            ]),
          ),
        },
      },
    };
  }
  return responses;
}

function parametersOf(endpoint: AnyEndpoint, convert: ReturnType<typeof converter>) {
  const parameters: unknown[] = [];
  for (const [location, schema] of [['path', endpoint.params], ['query', endpoint.query]] as const) {
    if (!(schema instanceof z.ZodObject)) continue;
    const json = convert(schema, 'input');
    const properties = (json.properties ?? {}) as Record<string, JsonSchema>;
    const required = new Set((json.required ?? []) as string[]);
    for (const [name, property] of Object.entries(properties)) {
      const { description, ...rest } = property;
      parameters.push({ name, in: location, required: location === 'path' || required.has(name), description, schema: rest });
    }
  }
  if (endpoint.method === 'POST') {
    parameters.push({
      name: 'Idempotency-Key',
      in: 'header',
      required: false,
      description: 'Makes the request safe to retry: the same key and body within 24 h replays the first response',
      schema: { type: 'string', minLength: 1, maxLength: IDEMPOTENCY_KEY_MAX_LENGTH },
    });
  }
  return parameters;
}

function operationOf(endpoint: AnyEndpoint, convert: ReturnType<typeof converter>) {
  const successHeaders: Record<string, unknown> = {
    'Request-Id': ref('RequestId'),
    'RateLimit-Policy': ref('RateLimitPolicy'),
    RateLimit: ref('RateLimit'),
  };
  if (endpoint.method === 'POST') successHeaders['Idempotent-Replayed'] = ref('IdempotentReplayed');
  const scopeNote = endpoint.scope ? `Requires scope \`${endpoint.scope}\`.` : 'Requires no scope.';
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
            required: endpoint.operationId === 'createInvoice',
            content: { 'application/json': { schema: convert(endpoint.body, 'input') } },
          },
        }
      : {}),
    responses: {
      [String(endpoint.successStatus)]: {
        description: endpoint.summary,
        headers: successHeaders,
        content: { 'application/json': { schema: convert(endpoint.response, 'output') } },
      },
      ...errorResponses(errorCodesOf(endpoint)),
    },
  };
}

export const OPENAPI_PATH = '/v1/openapi.json';

export function buildOpenApiDocument() {
  const components: Record<string, JsonSchema> = {};
  const convert = converter(components);
  convert(ProblemSchema, 'output'); // registers components.schemas.Problem

  const paths: Record<string, Record<string, unknown>> = {};
  for (const endpoint of ENDPOINTS) {
    paths[endpoint.path] ??= {};
    paths[endpoint.path]![endpoint.method.toLowerCase()] = operationOf(endpoint, convert);
  }
  paths[OPENAPI_PATH] = {
    get: {
      operationId: 'getOpenApiDocument',
      summary: 'This OpenAPI document',
      tags: ['Meta'],
      security: [],
      responses: {
        '200': { description: 'OpenAPI 3.1 document', headers: { 'Request-Id': ref('RequestId') }, content: { 'application/json': { schema: { type: 'object' } } } },
      },
    },
  };

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
            { name: 'webhook-id', in: 'header', required: true, description: 'The event id, the same on every retry: de-duplicate on it', schema: { type: 'string' } },
            { name: 'webhook-timestamp', in: 'header', required: true, description: 'Unix seconds of this attempt', schema: { type: 'string', pattern: '^[0-9]+$' } },
            {
              name: 'webhook-signature',
              in: 'header',
              required: true,
              description: 'Space-separated `v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">` (two during a secret roll)',
              schema: { type: 'string' },
            },
          ],
          requestBody: {
            required: true,
            content: { 'application/json': { schema: { allOf: [eventSchema, { type: 'object', properties: { type: { const: type } } }] } } },
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
      version: '1.0.0',
      description: [
        'Accept cryptocurrency payments through invoices. Authenticate every request with an API key in `X-API-Key` (preferred) or `Authorization: Bearer`.',
        'Keys are bound to one environment by their prefix (`test_` or `live_`); invoices take the environment of the key that creates them.',
        `Scopes: ${Object.entries(SCOPE_DESCRIPTIONS).map(([scope, text]) => `\`${scope}\` (${text})`).join(', ')}.`,
        'Errors are RFC 9457 problem details with a stable `code`.',
      ].join('\n\n'),
    },
    servers: [{ url: '/' }],
    tags: [
      { name: 'Keys', description: 'The calling key' },
      { name: 'Invoices', description: 'Create, list, read and cancel invoices' },
      { name: 'Test mode', description: 'Simulate payments of test invoices' },
      { name: 'Events', description: 'Everything that happened to your invoices, kept 30 days' },
      { name: 'Webhooks', description: 'Events as signed POSTs to your endpoints (configured in the portal)' },
      { name: 'Meta', description: 'This document' },
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
