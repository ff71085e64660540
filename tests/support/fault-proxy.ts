import net from 'node:net';
import type { AddressInfo } from 'node:net';

/**
 * A TCP proxy in front of the app under test that injects a network fault on chosen connections, to test clients'
 * retries against the real server:
 * - 'pass': relays both ways;
 * - 'drop-response': relays the request, lets the server answer it in full, then closes the client's connection
 *   without a byte of that answer (the work was done; the client never heard);
 * - 'hang': accepts and never answers (timeouts);
 * - a scripted response (e.g. a 503), sent once the request's head arrived, without reaching the server.
 */
export type Fault =
  'pass' | 'drop-response' | 'hang' | { status: number; headers?: Record<string, string>; body?: string };

export interface FaultProxy {
  url: string;
  /** The request head of each connection, in order of arrival. */
  requests: string[];
  close(): Promise<void>;
}

export async function startFaultProxy(target: string, faultFor: (connection: number) => Fault): Promise<FaultProxy> {
  const { hostname, port } = new URL(target);
  const requests: string[] = [];
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const index = requests.length;
    requests.push('');
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    client.on('error', () => undefined);
    const fault = faultFor(index);
    client.on('data', (chunk: Buffer) => {
      if (!requests[index]!.includes('\r\n\r\n')) requests[index] += chunk.toString('latin1');
    });
    if (fault === 'hang') return;
    if (typeof fault === 'object') {
      client.on('data', () => {
        if (!requests[index]!.includes('\r\n\r\n') || client.writableEnded) return;
        const body = fault.body ?? '';
        const head = [
          `HTTP/1.1 ${fault.status} Scripted`,
          'Connection: close',
          `Content-Length: ${Buffer.byteLength(body)}`,
        ];
        for (const [name, value] of Object.entries(fault.headers ?? {})) head.push(`${name}: ${value}`);
        client.end(`${head.join('\r\n')}\r\n\r\n${body}`);
      });
      return;
    }
    const upstream = net.connect(Number(port), hostname);
    sockets.add(upstream);
    upstream.on('close', () => sockets.delete(upstream));
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
    client.pipe(upstream);
    if (fault === 'drop-response') {
      // The first byte of the answer means the server finished the request: drop both sides there.
      upstream.once('data', () => {
        client.destroy();
        upstream.destroy();
      });
    } else {
      upstream.pipe(client);
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** A header's value in a raw request head (case-insensitive name). */
export function headerOf(head: string, name: string): string | undefined {
  const match = new RegExp(`^${name}:[ \\t]*(.*?)\\r?$`, 'im').exec(head);
  return match?.[1];
}
