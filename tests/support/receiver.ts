import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';

/**
 * A real HTTP receiver on 127.0.0.1 for webhook tests: records every request and answers as scripted. With
 * `tls` (a certificate the worker trusts, scripts/dev-tls.ts) it serves https, as live endpoints require.
 */
export interface ReceivedRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: string;
  at: number;
}

export type Reply = { status: number; headers?: Record<string, string>; body?: string } | 'hang';

export interface Receiver {
  url: string;
  received: ReceivedRequest[];
  /** Resolves once `count` requests have arrived (rejects after timeoutMs). */
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedRequest[]>;
  close(): Promise<void>;
}

export async function startReceiver(
  reply: (request: ReceivedRequest, index: number) => Reply = () => ({ status: 200 }),
  options: { tls?: { key: string; cert: string } } = {},
): Promise<Receiver> {
  const received: ReceivedRequest[] = [];
  const waiters: Array<() => void> = [];
  const handler: http.RequestListener = (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(req.headers)) if (typeof value === 'string') headers[name] = value;
      const request = {
        method: req.method ?? '',
        path: req.url ?? '',
        headers,
        body: Buffer.concat(chunks).toString('utf8'),
        at: Date.now(),
      };
      received.push(request);
      waiters.splice(0).forEach((wake) => wake());
      const answer = reply(request, received.length - 1);
      if (answer === 'hang') return; // never answers: a timeout for the sender
      res.writeHead(answer.status, answer.headers);
      res.end(answer.body ?? '');
    });
  };
  const server = options.tls ? https.createServer(options.tls, handler) : http.createServer(handler);
  server.keepAliveTimeout = 1;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `${options.tls ? 'https' : 'http'}://127.0.0.1:${port}/hooks`,
    received,
    async waitFor(count, timeoutMs = 30_000) {
      const deadline = Date.now() + timeoutMs;
      while (received.length < count) {
        if (Date.now() > deadline)
          throw new Error(`receiver got ${received.length} of ${count} requests in ${timeoutMs} ms`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 200);
        });
      }
      return received.slice(0, count);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
