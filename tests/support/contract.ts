import { Validator } from '@seriousme/openapi-schema-validator';
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';

/**
 * Checks responses against the served OpenAPI document with third-party validators (the document itself
 * with @seriousme/openapi-schema-validator against the official OAS 3.1 schema; bodies with Ajv's
 * JSON Schema 2020-12 implementation), never with our own zod schemas.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- an OpenAPI document is arbitrary JSON
type Json = any;

interface Contract {
  document: Json;
  ajv: Ajv2020;
  validators: Map<string, ValidateFunction>;
  matchers: { template: string; pattern: RegExp }[];
}

let contract: Promise<Contract> | undefined;

export async function fetchDocument(baseUrl: string): Promise<Json> {
  const response = await fetch(`${baseUrl}/v1/openapi.json`);
  if (response.status !== 200) throw new Error(`GET /v1/openapi.json → ${response.status}`);
  return response.json();
}

export async function validateDocument(document: Json): Promise<{ valid: boolean; errors?: unknown }> {
  const validator = new Validator();
  const result = await validator.validate(structuredClone(document));
  return { valid: result.valid, errors: result.errors };
}

async function load(baseUrl: string): Promise<Contract> {
  const document = await fetchDocument(baseUrl);
  const validity = await validateDocument(document);
  if (!validity.valid)
    throw new Error(`The served OpenAPI document is invalid: ${JSON.stringify(validity.errors).slice(0, 2000)}`);
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema(document, 'openapi.json');
  const matchers = Object.keys(document.paths).map((template) => ({
    template,
    pattern: new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`),
  }));
  return { document, ajv, validators: new Map(), matchers };
}

function pointer(...segments: string[]): string {
  return segments.map((s) => s.replaceAll('~', '~0').replaceAll('/', '~1')).join('/');
}

/**
 * Throws when a response of a documented operation does not match the document: undocumented status,
 * wrong content type, a body that fails the schema, or (when `headers` are given) a header the response
 * object marks required that is missing, or any documented header whose value fails its schema.
 * Undocumented paths/methods are not checked here.
 */
export async function assertMatchesContract(
  baseUrl: string,
  method: string,
  url: string,
  status: number,
  contentType: string | null,
  body: unknown,
  headers?: Headers,
): Promise<void> {
  contract ??= load(baseUrl);
  const { document, ajv, validators, matchers } = await contract;
  const path = new URL(url, baseUrl).pathname;
  const match = matchers.find((m) => m.pattern.test(path));
  const operation = match && document.paths[match.template]?.[method.toLowerCase()];
  if (!match || !operation) return;
  const response = operation.responses[String(status)] ?? operation.responses.default;
  const where = `${method} ${path} → ${status}`;
  if (!response) throw new Error(`${where}: status not documented (${Object.keys(operation.responses).join(', ')})`);
  // HEAD and 204 responses have no body: the status and headers are what the document promises.
  if (method.toUpperCase() === 'HEAD' || !response.content) {
    if (method.toUpperCase() !== 'HEAD' && body !== undefined)
      throw new Error(`${where}: a body where the document declares none`);
    if (headers) checkHeaders(document, ajv, response.headers ?? {}, headers, where);
    return;
  }
  const mediaType = (contentType ?? '').split(';')[0]!.trim();
  const content = response.content?.[mediaType];
  if (!content) throw new Error(`${where}: content type ${mediaType || '(none)'} not documented`);
  const key = `openapi.json#/${pointer('paths', match.template, method.toLowerCase(), 'responses', status in operation.responses ? String(status) : 'default', 'content', mediaType, 'schema')}`;
  let validate = validators.get(key);
  if (!validate) {
    validate = ajv.getSchema(key);
    if (!validate) throw new Error(`${where}: no schema at ${key}`);
    validators.set(key, validate);
  }
  if (!validate(body))
    throw new Error(`${where}: body does not match the document: ${ajv.errorsText(validate.errors)}`);
  if (headers) checkHeaders(document, ajv, response.headers ?? {}, headers, where);
}

function checkHeaders(document: Json, ajv: Ajv2020, declared: Record<string, Json>, actual: Headers, where: string) {
  for (const [name, entry] of Object.entries(declared)) {
    const header = typeof entry.$ref === 'string' ? document.components.headers[entry.$ref.split('/').pop()!] : entry;
    const value = actual.get(name);
    if (value === null) {
      if (header.required) throw new Error(`${where}: required header ${name} is missing`);
      continue;
    }
    const schema = header.schema ?? {};
    const typed = schema.type === 'integer' && /^-?\d+$/.test(value) ? Number(value) : value;
    if (!ajv.validate(schema, typed))
      throw new Error(`${where}: header ${name}: ${JSON.stringify(value)} does not match ${JSON.stringify(schema)}`);
  }
}
