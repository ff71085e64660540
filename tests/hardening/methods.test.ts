import { describe, expect, it } from 'vitest';
import { fetchDocument } from '../support/contract';
import { seedAccount } from '../support/fixtures';
import { baseUrl, call, expectProblem } from '../support/http';

/**
 * Methods beyond the documented ones. OPTIONS is answered by our route files (Next's automatic answer
 * would list every exported method, including the ones that only return 405); HEAD is Next's, from GET.
 */
describe('OPTIONS and HEAD', () => {
  it('OPTIONS on every documented path → 204 whose Allow lists exactly the documented methods', async () => {
    const document = await fetchDocument(baseUrl());
    for (const [template, operations] of Object.entries(document.paths as Record<string, Record<string, unknown>>)) {
      const path = template.replace('{id}', 'inv_000000000000000000000000');
      const response = await fetch(`${baseUrl()}${path}`, { method: 'OPTIONS' });
      expect(response.status, path).toBe(204);
      expect(response.headers.get('request-id')).toMatch(/^req_/);
      // Allow names the path's operations; OPTIONS and HEAD are documented for every path and not listed.
      const methods = Object.keys(operations).filter((method) => method !== 'options' && method !== 'head');
      expect(response.headers.get('allow')?.split(', ').sort()).toEqual(methods.map((m) => m.toUpperCase()).sort());
    }
  });

  it('OPTIONS on an unknown /v1 path → 404 problem', async () => {
    expectProblem(await call('OPTIONS', '/v1/nope'), 404, 'route_not_found');
  });

  it('HEAD mirrors GET: same status and headers, no body; without a key it is a 401', async () => {
    const account = await seedAccount();
    const head = await fetch(`${baseUrl()}/v1/me`, { method: 'HEAD', headers: { 'X-API-Key': account.secret } });
    expect(head.status).toBe(200);
    expect(head.headers.get('ratelimit')).toMatch(/"per-second";r=\d+;t=\d+, "workspace";r=\d+;t=\d+, "monthly"/);
    expect(await head.text()).toBe('');
    const anonymous = await fetch(`${baseUrl()}/v1/me`, { method: 'HEAD' });
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('www-authenticate')).toBe('Bearer realm="api"');
  });
});
