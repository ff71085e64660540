import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentFor, closeAgents } from './agents';
import { postWebhook } from './http';

describe('postWebhook connections', () => {
  let server: http.Server;
  let connections = 0;
  let url: URL;

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      req.resume();
      req.on('end', () => res.writeHead(204).end());
    });
    server.on('connection', () => (connections += 1));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`);
  });
  afterAll(async () => {
    closeAgents();
    await new Promise((resolve) => server.close(resolve));
  });

  it('reuses one kept-alive connection for consecutive attempts to the same checked address', async () => {
    const address = { address: '127.0.0.1', family: 4 as const };
    for (let i = 0; i < 3; i += 1) {
      const result = await postWebhook(url, address, { 'content-type': 'application/json' }, '{}');
      expect(result.status).toBe(204);
    }
    expect(connections).toBe(1);
  });

  it('never shares connections between two checked addresses of one origin', () => {
    const first = agentFor(url, { address: '127.0.0.1', family: 4 });
    expect(agentFor(url, { address: '127.0.0.1', family: 4 })).toBe(first);
    expect(agentFor(url, { address: '127.0.0.2', family: 4 })).not.toBe(first);
  });
});
