import { buildOpenApiDocument } from './openapi';

/**
 * The API reference's content (docs/api.md "Reference page"), read from the OpenAPI document only: operations
 * grouped by tag, their parameters and responses, and per operation a curl and an SDK example and an example
 * response, built from the document's own examples. OPTIONS and HEAD are left out (every path answers them; the
 * document's description says so once).
 */

type Json = Record<string, unknown>;
export type OpenApiDocument = ReturnType<typeof buildOpenApiDocument>;

const DOCUMENTED_METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

/** The SDK call of each operation (sdk/README.md); an operation without one (the document itself) shows curl only. */
export const SDK_CALLS: Record<string, { call: string; result: string }> = {
  getMe: { call: 'client.me', result: 'me' },
  listInvoices: { call: 'client.invoices.list', result: 'page' },
  createInvoice: { call: 'client.invoices.create', result: 'invoice' },
  getInvoice: { call: 'client.invoices.retrieve', result: 'invoice' },
  cancelInvoice: { call: 'client.invoices.cancel', result: 'invoice' },
  simulateInvoicePayment: { call: 'client.testHelpers.invoices.simulatePayment', result: 'invoice' },
  listEvents: { call: 'client.events.list', result: 'page' },
  getEvent: { call: 'client.events.retrieve', result: 'event' },
  getRate: { call: 'client.rates.retrieve', result: 'rate' },
};

export const API_KEY_VARIABLE = 'CRYPTO_INVOICING_API_KEY';

/**
 * The schemas' examples show a paid invoice; the operations that answer an invoice in another state show it in
 * that state (tests/api/reference.test.ts checks each result against the response schema).
 */
const UNPAID = { paid_at: null, payment: null, amount_received: '0' };
const RESPONSE_EXAMPLE_STATES: Record<string, Record<string, unknown>> = {
  createInvoice: { ...UNPAID, status: 'pending' },
  cancelInvoice: { ...UNPAID, status: 'cancelled', cancelled_at: '2026-11-22T10:05:00.000Z' },
};

export interface ReferenceParameter {
  name: string;
  in: string;
  required: boolean;
  description: string | null;
  schema: Json;
}

export interface ReferenceResponse {
  status: string;
  description: string;
  schema: Json | null;
}

export interface ReferenceOperation {
  id: string;
  method: string;
  path: string;
  summary: string;
  description: string;
  parameters: ReferenceParameter[];
  /** `schema` as written (often a $ref), `resolved` the schema it names, whose properties the page lists. */
  requestBody: { schema: Json; resolved: Json; required: boolean } | null;
  responses: ReferenceResponse[];
  examples: { curl: string; sdk: string | null; response: { status: string; body: unknown } | null };
}

export interface ReferenceSection {
  tag: string;
  description: string;
  operations: ReferenceOperation[];
}

export interface ApiReference {
  title: string;
  version: string;
  description: string;
  serverUrl: string;
  sections: ReferenceSection[];
  schemas: Array<{ name: string; schema: Json }>;
  webhooks: Array<{ type: string; description: string }>;
}

const asJson = (value: unknown): Json =>
  value && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : {};

function resolve(schema: Json, components: Json): Json {
  const ref = schema.$ref;
  if (typeof ref !== 'string') return schema;
  return asJson(components[ref.split('/').at(-1) ?? '']);
}

/** An example id for an id pattern such as `^inv_[0-9A-Za-z]{24}$`. */
function idExample(pattern: string): string | null {
  const match = /^\^([a-z]+_)\[0-9A-Za-z\]\{(\d+)\}\$$/.exec(pattern);
  if (!match) return null;
  return match[1] + '3kTz9QwErTyUiOpAsDfGhJkL9x8c7v6b5n4m'.slice(0, Number(match[2]));
}

/**
 * An example value of a schema: its own example(s) first (the zod schemas carry them), else one built from its
 * properties, enum, format or type. Depth-limited: the document's schemas are not recursive, but a bug must not hang a page.
 */
export function exampleOf(schemaValue: unknown, components: Json, depth = 0): unknown {
  const schema = resolve(asJson(schemaValue), components);
  if (depth > 8) return null;
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0];
  if ('example' in schema) return schema.example;
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  if ('default' in schema) return schema.default;
  for (const key of ['oneOf', 'anyOf'] as const) {
    const options = schema[key];
    if (Array.isArray(options) && options.length > 0) return exampleOf(options[0], components, depth + 1);
  }
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  if (type === 'object' || schema.properties) {
    const result: Json = {};
    for (const [name, property] of Object.entries(asJson(schema.properties)))
      result[name] = exampleOf(property, components, depth + 1);
    return result;
  }
  if (type === 'array') return [exampleOf(schema.items, components, depth + 1)];
  if (type === 'integer' || type === 'number') return typeof schema.minimum === 'number' ? schema.minimum : 0;
  if (type === 'boolean') return true;
  if (type === 'string') {
    if (schema.format === 'date-time') return '2026-11-22T10:00:00.000Z';
    if (schema.format === 'uri') return 'https://example.com/orders/1001';
    return (typeof schema.pattern === 'string' && idExample(schema.pattern)) || 'string';
  }
  return null;
}

/** A value as a JavaScript literal: unquoted keys where possible, single-quoted strings, two-space indent. */
export function jsLiteral(value: unknown, indent = ''): string {
  const inner = `${indent}  `;
  if (typeof value === 'string') return `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    return `[\n${value.map((item) => `${inner}${jsLiteral(item, inner)},`).join('\n')}\n${indent}]`;
  }
  if (value && typeof value === 'object') {
    const entries = Object.entries(value);
    if (entries.length === 0) return '{}';
    const key = (name: string) => (/^[A-Za-z_$][\w$]*$/.test(name) ? name : `'${name}'`);
    return `{\n${entries.map(([name, item]) => `${inner}${key(name)}: ${jsLiteral(item, inner)},`).join('\n')}\n${indent}}`;
  }
  return JSON.stringify(value) ?? 'undefined';
}

/** A string as one shell word in single quotes ('…'\''…'). */
function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

interface ExampleInput {
  method: string;
  path: string;
  serverUrl: string;
  operationId: string;
  authenticated: boolean;
  pathValues: Record<string, string>;
  query: Record<string, unknown>;
  body: unknown;
}

function curlExample({ method, path, serverUrl, authenticated, pathValues, query, body }: ExampleInput): string {
  const filled = path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(pathValues[name] ?? name));
  const search = new URLSearchParams(Object.entries(query).map(([name, value]) => [name, String(value)])).toString();
  const lines = [
    `curl ${method === 'get' || body !== undefined ? '' : `-X ${method.toUpperCase()} `}${shellQuote(`${serverUrl}${filled}${search ? `?${search}` : ''}`)}`,
  ];
  if (authenticated) lines.push(`-H "X-API-Key: $${API_KEY_VARIABLE}"`);
  if (body !== undefined) {
    lines.push(`-H 'Content-Type: application/json'`);
    lines.push(`-d ${shellQuote(JSON.stringify(body, null, 2))}`);
  }
  return lines.join(' \\\n  ');
}

function sdkExample({ operationId, serverUrl, pathValues, query, body }: ExampleInput): string | null {
  const sdk = SDK_CALLS[operationId];
  if (!sdk) return null;
  const args = [...Object.values(pathValues).map((value) => jsLiteral(value))];
  if (body !== undefined && Object.keys(asJson(body)).length > 0) args.push(jsLiteral(body));
  if (Object.keys(query).length > 0) args.push(jsLiteral(query));
  return [
    "import { Client } from '@crypto-invoicing/sdk';",
    '',
    `const client = new Client({\n  apiKey: process.env.${API_KEY_VARIABLE},\n  baseUrl: ${jsLiteral(serverUrl)},\n});`,
    `const ${sdk.result} = await ${sdk.call}(${args.join(', ')});`,
  ].join('\n');
}

function operationOf(method: string, path: string, op: Json, components: Json, serverUrl: string): ReferenceOperation {
  const parameters: ReferenceParameter[] = (Array.isArray(op.parameters) ? op.parameters : []).map(asJson).map((p) => ({
    name: String(p.name),
    in: String(p.in),
    required: p.required === true,
    description: typeof p.description === 'string' ? p.description : null,
    schema: asJson(p.schema),
  }));
  const bodyContent = asJson(asJson(asJson(op.requestBody).content)['application/json']);
  const bodySchema = asJson(bodyContent.schema);
  // EmptyRequest (a POST that takes no fields) is not a body worth documenting or sending.
  const hasBody = Object.keys(asJson(resolve(bodySchema, components).properties)).length > 0;
  const responses: ReferenceResponse[] = Object.entries(asJson(op.responses)).map(([status, value]) => {
    const response = asJson(value);
    const content = asJson(response.content);
    const schema = asJson(asJson(content['application/json'] ?? content['application/problem+json']).schema);
    return {
      status,
      description: String(response.description ?? ''),
      schema: Object.keys(schema).length > 0 ? schema : null,
    };
  });

  const success = responses.find((response) => response.status.startsWith('2'));
  const state = RESPONSE_EXAMPLE_STATES[String(op.operationId)];
  const example = success?.schema ? exampleOf(success.schema, components) : null;
  const responseExample = state && example ? { ...asJson(example), ...state } : example;
  const pathValues: Record<string, string> = {};
  const query: Record<string, unknown> = {};
  for (const parameter of parameters) {
    if (parameter.in === 'path') pathValues[parameter.name] = String(exampleOf(parameter.schema, components));
    // A required query parameter echoed in the response (GET /v1/rates' currency) takes the response example's value.
    if (parameter.in === 'query' && parameter.required)
      query[parameter.name] = asJson(responseExample)[parameter.name] ?? exampleOf(parameter.schema, components);
  }
  const body = hasBody ? exampleOf(bodySchema, components) : undefined;
  // An empty body ({}) is what the API reads for no body: the examples send none.
  const sentBody = body !== undefined && Object.keys(asJson(body)).length > 0 ? body : undefined;
  const input: ExampleInput = {
    method,
    path,
    serverUrl,
    operationId: String(op.operationId),
    authenticated: Array.isArray(op.security) && op.security.length > 0,
    pathValues,
    query,
    body: sentBody,
  };
  return {
    id: String(op.operationId),
    method,
    path,
    summary: String(op.summary ?? ''),
    description: String(op.description ?? ''),
    parameters,
    requestBody: hasBody
      ? {
          schema: bodySchema,
          resolved: resolve(bodySchema, components),
          required: asJson(op.requestBody).required === true,
        }
      : null,
    responses,
    examples: {
      curl: curlExample(input),
      sdk: sdkExample(input),
      // An open schema (the OpenAPI document itself) has no example worth showing.
      response:
        success && responseExample !== null && Object.keys(asJson(responseExample)).length > 0
          ? { status: success.status, body: responseExample }
          : null,
    },
  };
}

export function apiReference(document: OpenApiDocument = buildOpenApiDocument()): ApiReference {
  const components = asJson(document.components.schemas);
  const serverUrl = document.servers[0]?.url ?? '';
  const sections: ReferenceSection[] = document.tags.map((tag) => ({
    tag: tag.name,
    description: tag.description,
    operations: [],
  }));
  for (const [path, item] of Object.entries(document.paths)) {
    for (const method of DOCUMENTED_METHODS) {
      const op = asJson(item[method]);
      if (Object.keys(op).length === 0) continue;
      const tag = Array.isArray(op.tags) ? String(op.tags[0]) : 'Other';
      let section = sections.find((candidate) => candidate.tag === tag);
      if (!section) sections.push((section = { tag, description: '', operations: [] }));
      section.operations.push(operationOf(method, path, op, components, serverUrl));
    }
  }
  return {
    title: document.info.title,
    version: document.info.version,
    description: document.info.description,
    serverUrl,
    sections: sections.filter((section) => section.operations.length > 0),
    schemas: Object.entries(components).map(([name, schema]) => ({ name, schema: asJson(schema) })),
    webhooks: Object.entries(document.webhooks).map(([type, item]) => ({
      type,
      description: String(asJson(asJson(item).post).description ?? ''),
    })),
  };
}
