import http from 'node:http';
import https from 'node:https';
import { agentFor } from './agents';

export const DELIVERY_TIMEOUT_MS = 10_000;
const RESPONSE_BODY_LIMIT = 2048;

export interface AttemptResult {
  /** HTTP status, or null when no response arrived (refused, reset, timeout). */
  status: number | null;
  durationMs: number;
  /** The first 2 KiB of the response body, as text. */
  body: string;
  retryAfter: string | null;
  error: string | null;
}

/**
 * One POST to a webhook URL, connected to `address` (the one url-policy checked) whatever the DNS says now,
 * on a kept-alive connection to that address when one is free.
 * Redirects are not followed (a 3xx is a failed attempt); the whole exchange is bounded by the timeout.
 */
export function postWebhook(
  url: URL,
  address: { address: string; family: 4 | 6 },
  headers: Record<string, string>,
  body: string,
): Promise<AttemptResult> {
  const started = performance.now();
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve) => {
    let settled = false;
    const finish = (result: Omit<AttemptResult, 'durationMs'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ ...result, durationMs: Math.round(performance.now() - started) });
    };
    const request = client.request(
      url,
      {
        method: 'POST',
        headers: {
          ...headers,
          'content-length': String(Buffer.byteLength(body)),
          'user-agent': 'crypto-invoicing-webhooks/1',
        },
        // Kept-alive connections, each pinned to the checked address (lib/webhooks/agents.ts).
        agent: agentFor(url, address),
      },
      (response) => {
        const chunks: Buffer[] = [];
        let kept = 0;
        response.on('data', (chunk: Buffer) => {
          if (kept < RESPONSE_BODY_LIMIT) {
            chunks.push(chunk.subarray(0, RESPONSE_BODY_LIMIT - kept));
            kept += Math.min(chunk.length, RESPONSE_BODY_LIMIT - kept);
          }
        });
        const done = () =>
          finish({
            status: response.statusCode ?? null,
            body: Buffer.concat(chunks).toString('utf8'),
            retryAfter: typeof response.headers['retry-after'] === 'string' ? response.headers['retry-after'] : null,
            error: null,
          });
        response.on('end', done);
        response.on('error', done);
      },
    );
    const timer = setTimeout(() => {
      request.destroy();
      finish({ status: null, body: '', retryAfter: null, error: `No response within ${DELIVERY_TIMEOUT_MS / 1000} s` });
    }, DELIVERY_TIMEOUT_MS);
    request.on('error', (error: NodeJS.ErrnoException) =>
      finish({
        status: null,
        body: '',
        retryAfter: null,
        error: error.code ? `${error.code}: connection failed` : 'Connection failed',
      }),
    );
    request.end(body);
  });
}
