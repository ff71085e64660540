// The access log: one JSON line on stdout per /v1 request, with no secret in it. Read from the stdout of a
// `next start` of the test's own (same build, same database).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../scripts/db/embedded';
import { startNext, type NextServer } from '../../scripts/next-app';
import { seedAccount } from '../support/fixtures';
import { call } from '../support/http';

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
      await call('GET', '/v1/me', { key: secret, base }),
      await call('POST', '/v1/invoices', { key: secret, base, body: { amount: 'not money', currency: 'USDT', network: 'tron', order_id: bodyMarker } }),
      await call('GET', '/v1/me', { key: 'test_not_a_real_key', base, headers: { 'X-Trace-Secret': 'header-marker' } }),
      await call('GET', '/v1/no-such-route?token=query-marker', { base }),
    ];
    const requestIds = responses.map((response) => response.headers.get('request-id')!);
    expect(requestIds.every(Boolean)).toBe(true);

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
      expect(Object.keys(line!).sort()).toEqual(['duration_ms', 'key_id', 'level', 'method', 'msg', 'path', 'request_id', 'status', 'time']);
      expect(new Date(line!.time as string).toISOString()).toBe(line!.time);
      expect(line!.duration_ms).toEqual(expect.any(Number));
    });
    for (const secretThing of [secret, 'test_not_a_real_key', 'header-marker', bodyMarker, 'query-marker', 'not money']) {
      expect(stdout).not.toContain(secretThing);
    }
  });
});
