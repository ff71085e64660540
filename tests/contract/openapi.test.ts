import { readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ENDPOINTS } from '@/lib/api/endpoints';
import { assertMatchesContract, fetchDocument, validateDocument } from '../support/contract';
import { monthlyCount, seedAccount } from '../support/fixtures';
import { baseUrl, call } from '../support/http';

const PROBLEM_401 = {
  type: 'http://localhost/docs/errors#missing_api_key',
  title: 'Missing API key',
  status: 401,
  detail: 'x',
  code: 'missing_api_key',
  request_id: 'req_x',
};

const APP_V1 = path.resolve(import.meta.dirname, '..', '..', 'app', 'v1');

/** The API paths the app serves: every app/v1/** /route.ts except the catch-alls for unknown routes. */
function appRoutes(dir = APP_V1, prefix = '/v1'): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.isFile() && entry.name === 'route.ts' && prefix !== '/v1') out.push(prefix);
    if (entry.isDirectory() && !entry.name.startsWith('[...')) {
      const segment = entry.name.replace(/^\[(\w+)\]$/, '{$1}');
      out.push(...appRoutes(path.join(dir, entry.name), `${prefix}/${segment}`));
    }
  }
  return out.sort();
}

describe('OpenAPI document', () => {
  it('is a valid OpenAPI 3.1 document (official schema, third-party validator)', async () => {
    const document = await fetchDocument(baseUrl());
    expect(document.openapi).toBe('3.1.0');
    expect(await validateDocument(document)).toEqual({ valid: true });
  });

  it("its paths are exactly the app's routes", async () => {
    const document = await fetchDocument(baseUrl());
    expect(Object.keys(document.paths).sort()).toEqual(appRoutes());
  });

  it('documents every operation of the registry with its scope and error codes', async () => {
    const document = await fetchDocument(baseUrl());
    for (const endpoint of ENDPOINTS) {
      const operation = document.paths[endpoint.path][endpoint.method.toLowerCase()];
      expect(operation.operationId).toBe(endpoint.operationId);
      expect(operation['x-required-scope']).toBe(endpoint.scope ?? undefined);
      const statuses = Object.keys(operation.responses);
      expect(statuses).toContain(String(endpoint.successStatus));
      expect(statuses).toEqual(expect.arrayContaining(['401', '403', '429', '500']));
    }
  });

  it('needs no key and is not counted', async () => {
    const account = await seedAccount();
    const result = await fetch(`${baseUrl()}/v1/openapi.json`, { headers: { 'X-API-Key': account.secret } });
    expect(result.status).toBe(200);
    expect(await monthlyCount(account.workspace.id)).toBe(0);
  });

  it('the response check rejects a body that breaks the document (the check can fail)', async () => {
    await expect(
      assertMatchesContract(baseUrl(), 'GET', '/v1/me', 200, 'application/json', { key: {} }),
    ).rejects.toThrow(/does not match/);
    await expect(assertMatchesContract(baseUrl(), 'GET', '/v1/me', 418, 'application/json', {})).rejects.toThrow(
      /not documented/,
    );
    await expect(assertMatchesContract(baseUrl(), 'GET', '/v1/me', 401, 'text/html', '')).rejects.toThrow(
      /content type/,
    );
    await expect(
      assertMatchesContract(baseUrl(), 'GET', '/v1/invoices/inv_x', 404, 'application/problem+json', { code: 'nope' }),
    ).rejects.toThrow(/does not match/);
  });

  it('the response check enforces documented headers', async () => {
    const withRequestId = new Headers({ 'Request-Id': 'req_x', 'RateLimit-Policy': 'p', RateLimit: 'r' });
    await expect(
      assertMatchesContract(baseUrl(), 'GET', '/v1/me', 401, 'application/problem+json', PROBLEM_401, withRequestId),
    ).rejects.toThrow(/required header WWW-Authenticate/);
    await expect(
      assertMatchesContract(
        baseUrl(),
        'GET',
        '/v1/me',
        401,
        'application/problem+json',
        PROBLEM_401,
        new Headers({ 'WWW-Authenticate': 'Bearer realm="api"' }),
      ),
    ).rejects.toThrow(/required header Request-Id/);
    await expect(
      assertMatchesContract(
        baseUrl(),
        'GET',
        '/v1/me',
        429,
        'application/problem+json',
        { ...PROBLEM_401, status: 429, code: 'rate_limited' },
        new Headers({ 'Request-Id': 'req_x', 'Retry-After': 'soon' }),
      ),
    ).rejects.toThrow(/Retry-After/);
  });

  it('a real response passes the check', async () => {
    const account = await seedAccount();
    const result = await call('GET', '/v1/me', { key: account.secret });
    expect(result.status).toBe(200);
  });
});
