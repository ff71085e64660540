// The access log: one JSON line on stdout per /v1 request, with no secret in it. Read from the stdout of a
// `next start` of the test's own (same build, same database).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../scripts/db/embedded';
import { startNext, type NextServer } from '../../scripts/next-app';
import http from 'node:http';
import { seedAccount } from '../support/fixtures';

/**
 * One request on a fresh connection (no keep-alive pool: on a loaded machine a pooled socket can be reused just
 * as the server closes it, which has nothing to do with what this file tests). Returns status and Request-Id.
 */
function send(
  base: string,
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: unknown,
): Promise<{ status: number; requestId: string }> {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const request = http.request(
      `${base}${path}`,
      { method, agent: false, headers: { ...headers, ...(payload ? { 'Content-Type': 'application/json' } : {}) } },
      (response) => {
        response.resume();
        response.on('end', () =>
          resolve({ status: response.statusCode!, requestId: String(response.headers['request-id']) }),
        );
      },
    );
    request.on('error', reject);
    request.end(payload);
  });
}

let server: NextServer;
let stdout = '';

beforeAll(async () => {
  server = await startNext({ port: await freePort(), databaseUrl: process.env.DATABASE_URL!, stdio: 'pipe' });
  server.child.stdout!.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
});
afterAll(async () => {
  await server?.stop();
});

/** The access-log lines written so far (other output, e.g. Next's banner, is not JSON with msg "request"). */
function accessLines(): Record<string, unknown>[] {
  return stdout
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .filter((entry) => entry.msg === 'request');
}

async function linesFor(requestIds: string[]): Promise<Record<string, unknown>[]> {
  // Lines are written asynchronously: wait for them by content (bounded), never by a fixed delay.
  for (let i = 0; i < 200; i++) {
    const lines = accessLines().filter((entry) => requestIds.includes(entry.request_id as string));
    if (lines.length >= requestIds.length) return lines;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return accessLines().filter((entry) => requestIds.includes(entry.request_id as string));
}

describe('access log', () => {
  it('writes exactly one line per /v1 request with time, request id, method, path, status, duration and key id — never the key, headers or body', async () => {
    const { key, secret } = await seedAccount({ plan: 'Business' });
    const base = server.baseUrl;
    const bodyMarker = `order-${Date.now()}-body-marker`;
    const responses = [
      await send(base, 'GET', '/v1/me', { 'X-API-Key': secret }),
      await send(
        base,
        'POST',
        '/v1/invoices',
        { 'X-API-Key': secret },
        { amount: 'not money', currency: 'USDT', network: 'tron', order_id: bodyMarker },
      ),
      await send(base, 'GET', '/v1/me', { 'X-API-Key': 'test_not_a_real_key', 'X-Trace-Secret': 'header-marker' }),
      await send(base, 'GET', '/v1/no-such-route?token=query-marker'),
    ];
    expect(responses.map((response) => response.status)).toEqual([200, 400, 401, 404]);
    const requestIds = responses.map((response) => response.requestId);
    expect(requestIds.every((id) => id.startsWith('req_'))).toBe(true);

    const lines = await linesFor(requestIds);
    expect(lines).toHaveLength(responses.length);
    const byId = new Map(lines.map((line) => [line.request_id, line]));
    const expected = [
      { method: 'GET', path: '/v1/me', status: 200, key_id: key.id },
      { method: 'POST', path: '/v1/invoices', status: 400, key_id: key.id },
      { method: 'GET', path: '/v1/me', status: 401, key_id: null },
      { method: 'GET', path: '/v1/no-such-route', status: 404, key_id: null },
    ];
    expected.forEach((fields, i) => {
      const line = byId.get(requestIds[i]);
      expect(line).toMatchObject(fields);
      expect(Object.keys(line!).sort()).toEqual([
        'duration_ms',
        'key_id',
        'level',
        'method',
        'msg',
        'path',
        'request_id',
        'status',
        'time',
      ]);
      expect(new Date(line!.time as string).toISOString()).toBe(line!.time);
      expect(line!.duration_ms).toEqual(expect.any(Number));
    });
    for (const secretThing of [
      secret,
      'test_not_a_real_key',
      'header-marker',
      bodyMarker,
      'query-marker',
      'not money',
    ]) {
      expect(stdout).not.toContain(secretThing);
    }
  });
});
