import http from 'node:http';
import { describe, expect, it } from 'vitest';
import { baseUrl } from '../support/http';

/** A request with its path exactly as written (fetch would resolve "..", as a browser does; a proxy may not). */
function rawGet(path: string): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  const { hostname, port } = new URL(baseUrl());
  return new Promise((resolve, reject) => {
    const request = http.request({ hostname, port, path, method: 'GET' }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body }));
    });
    request.on('error', reject);
    request.end();
  });
}

describe('raw paths with dot segments (a proxy that forwards raw paths)', () => {
  it('GET /v1/../pay/<token> and its encoded forms get a 400, never a page without its headers', async () => {
    for (const path of [
      '/v1/../pay/abcdefghijklmnopqrstuv',
      '/v1/%2e%2e/pay/abcdefghijklmnopqrstuv',
      '/v1/.%2E/pay/abcdefghijklmnopqrstuv',
    ]) {
      const response = await rawGet(path);
      expect(response.status, path).toBe(400);
      expect(response.headers['content-type'], path).toBe('application/problem+json');
      expect(JSON.parse(response.body), path).toMatchObject({ code: 'path_not_normalized', status: 400 });
    }
  });

  it('the normalised payer path gets the payer page headers', async () => {
    const response = await rawGet('/pay/abcdefghijklmnopqrstuv');
    expect(response.headers['x-frame-options']).toBe('DENY');
    expect(response.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(response.headers['x-robots-tag']).toBe('noindex, nofollow');
  });
});
