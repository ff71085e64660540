import { assertMatchesContract } from './contract';

export function baseUrl(): string {
  const url = process.env.TEST_BASE_URL;
  if (!url) throw new Error('TEST_BASE_URL is not set: run the tests through `npm test` (vitest global setup)');
  return url;
}

export interface CallOptions {
  key?: string;
  headers?: Record<string, string>;
  body?: unknown;
  rawBody?: string;
  base?: string;
}

export interface CallResult {
  status: number;
  headers: Headers;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- test assertions read arbitrary JSON
  json: any;
  text: string;
}

/**
 * fetch, sent again once when the server had closed the idle keep-alive connection the request went out on
 * (undici reports "other side closed" before any response byte): the server never saw that request.
 */
async function fetchOnce(url: string, init: RequestInit): Promise<Response> {
  try {
    return await fetch(url, init);
  } catch (error) {
    const cause = (error as { cause?: { code?: string; socket?: { bytesRead?: number } } }).cause;
    if (cause?.code !== 'UND_ERR_SOCKET') throw error;
    return fetch(url, init);
  }
}

/** One real HTTP request to the app under test. */
export async function call(method: string, path: string, options: CallOptions = {}): Promise<CallResult> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.key !== undefined) headers['X-API-Key'] = options.key;
  let body: BodyInit | undefined;
  if (options.rawBody !== undefined) body = options.rawBody;
  else if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['Content-Type'] ??= 'application/json';
  }
  const response = await fetchOnce(`${options.base ?? baseUrl()}${path}`, { method, headers, body });
  const text = await response.text();
  let json: unknown = undefined;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  // Every response a test receives from a documented operation is checked against the OpenAPI document.
  await assertMatchesContract(
    options.base ?? baseUrl(),
    method,
    path,
    response.status,
    response.headers.get('content-type'),
    json,
    response.headers,
  );
  return { status: response.status, headers: response.headers, json, text };
}

/** Asserts the RFC 9457 problem shape and returns the body. */
export function expectProblem(result: CallResult, status: number, code: string) {
  const context = `${result.status} ${result.text.slice(0, 300)}`;
  if (result.status !== status) throw new Error(`expected ${status} ${code}, got ${context}`);
  const contentType = result.headers.get('content-type') ?? '';
  if (!contentType.startsWith('application/problem+json'))
    throw new Error(`expected problem+json, got ${contentType}: ${context}`);
  const body = result.json;
  if (body?.code !== code) throw new Error(`expected code ${code}, got ${context}`);
  for (const field of ['type', 'title', 'status', 'detail', 'code', 'request_id']) {
    if (!(field in body)) throw new Error(`problem lacks ${field}: ${context}`);
  }
  if (body.status !== status) throw new Error(`problem status ${body.status} != ${status}`);
  if (body.request_id !== result.headers.get('request-id'))
    throw new Error('request_id differs from the Request-Id header');
  return body as {
    type: string;
    title: string;
    status: number;
    detail: string;
    code: string;
    request_id: string;
    errors?: { path: string; message: string }[];
  };
}
