import { randomUUID } from 'node:crypto';
import { APIConnectionError, APIConnectionTimeoutError, errorFromResponse } from './errors.js';
import { backoffMs, retryDelayAfter } from './retry.js';
import { VERSION } from './version.js';

export interface ClientOptions {
  /** A `test_…` or `live_…` key. Default: the CRYPTO_INVOICING_API_KEY environment variable. */
  apiKey?: string;
  /** Where the API is served, e.g. https://pay.example.com. Default: CRYPTO_INVOICING_BASE_URL, else http://localhost:3000. */
  baseUrl?: string;
  /** Retries after a network error, a timeout, a 429 or a 5xx (default 2: at most three attempts). */
  maxRetries?: number;
  /** Per attempt, in milliseconds (default 30 000). */
  timeoutMs?: number;
  /** The longest Retry-After the client waits for before giving up (default 60 000 ms). */
  maxRetryDelayMs?: number;
  /** A fetch implementation (default: the global fetch). */
  fetch?: typeof fetch;
}

/** Options of one call; they override the client's. */
export interface RequestOptions {
  /** For POST requests: sent as Idempotency-Key (generated when absent), the same on every retry. */
  idempotencyKey?: string;
  signal?: AbortSignal;
  timeoutMs?: number;
  maxRetries?: number;
}

export interface ApiRequest {
  method: 'GET' | 'POST';
  path: string;
  query?: Record<string, string | number | boolean | undefined>;
  body?: unknown;
}

const DEFAULT_BASE_URL = 'http://localhost:3000';

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** "fetch failed (connect ECONNREFUSED 127.0.0.1:3000)": undici's message alone names no reason. */
function describe(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause.message : null;
  return cause && cause !== message ? `${message} (${cause})` : message;
}

/** HTTP with the API's conventions: authentication, idempotency keys, retries, timeouts, typed errors. */
export class Transport {
  readonly baseUrl: string;
  private readonly apiKey: string;
  private readonly maxRetries: number;
  private readonly timeoutMs: number;
  private readonly maxRetryDelayMs: number;
  private readonly fetch: typeof fetch;

  constructor(options: ClientOptions = {}) {
    const env: Record<string, string | undefined> = typeof process === 'undefined' ? {} : process.env;
    const apiKey = options.apiKey ?? env.CRYPTO_INVOICING_API_KEY;
    if (!apiKey)
      throw new TypeError(
        'An API key is required: new Client({ apiKey }) or the CRYPTO_INVOICING_API_KEY environment variable',
      );
    this.apiKey = apiKey;
    this.baseUrl = (options.baseUrl ?? env.CRYPTO_INVOICING_BASE_URL ?? DEFAULT_BASE_URL).replace(/\/+$/, '');
    this.maxRetries = options.maxRetries ?? 2;
    this.timeoutMs = options.timeoutMs ?? 30_000;
    this.maxRetryDelayMs = options.maxRetryDelayMs ?? 60_000;
    this.fetch = options.fetch ?? globalThis.fetch;
    if (typeof this.fetch !== 'function') throw new TypeError('No fetch implementation: Node 18 or later has one');
  }

  async request<T>(request: ApiRequest, options: RequestOptions = {}): Promise<T> {
    const url = new URL(this.baseUrl + request.path);
    for (const [name, value] of Object.entries(request.query ?? {}))
      if (value !== undefined) url.searchParams.set(name, String(value));
    const headers: Record<string, string> = {
      'X-API-Key': this.apiKey,
      Accept: 'application/json',
      'User-Agent': `crypto-invoicing-sdk/${VERSION} node/${typeof process === 'undefined' ? 'unknown' : process.version}`,
    };
    let body: string | undefined;
    if (request.method === 'POST') {
      // One key for every attempt of this call: the API answers a retry with the first attempt's stored result.
      headers['Idempotency-Key'] = options.idempotencyKey ?? `sdk_${randomUUID()}`;
      headers['Content-Type'] = 'application/json';
      body = JSON.stringify(request.body ?? {});
    }
    const maxRetries = options.maxRetries ?? this.maxRetries;
    const timeoutMs = options.timeoutMs ?? this.timeoutMs;
    const signal = options.signal;

    for (let attempt = 0; ; attempt++) {
      signal?.throwIfAborted();
      const attemptController = new AbortController();
      const abort = () => attemptController.abort(signal?.reason);
      signal?.addEventListener('abort', abort, { once: true });
      let timedOut = false;
      const timer = setTimeout(() => {
        timedOut = true;
        attemptController.abort();
      }, timeoutMs);
      let status: number;
      let responseHeaders: Headers;
      let text: string;
      try {
        const response = await this.fetch(url, {
          method: request.method,
          headers,
          body,
          signal: attemptController.signal,
        });
        status = response.status;
        responseHeaders = response.headers;
        text = await response.text(); // under the same timeout: a body that stops arriving is a timeout too
      } catch (cause) {
        if (signal?.aborted) throw signal.reason;
        const error = timedOut
          ? new APIConnectionTimeoutError(`No response from ${request.method} ${request.path} within ${timeoutMs} ms`, {
              cause,
            })
          : new APIConnectionError(`${request.method} ${request.path} failed: ${describe(cause)}`, { cause });
        if (attempt >= maxRetries) throw error;
        await sleep(backoffMs(attempt), signal);
        continue;
      } finally {
        clearTimeout(timer);
        signal?.removeEventListener('abort', abort);
      }

      if (status >= 200 && status < 300) return (text ? JSON.parse(text) : undefined) as T;
      const error = errorFromResponse(status, responseHeaders, text);
      const delay = attempt < maxRetries ? retryDelayAfter(error, attempt, this.maxRetryDelayMs) : null;
      if (delay === null) throw error;
      await sleep(delay, signal);
    }
  }
}
