import { describe, expect, it } from 'vitest';
import { seedAccount } from '../support/fixtures';
import { call, expectProblem } from '../support/http';

describe('routing and response envelope', () => {
  it('unknown routes under /v1 → 404 problem', async () => {
    for (const path of [
      '/v1',
      '/v1/',
      '/v1/nope',
      '/v1/invoices/inv_000000000000000000000000/refund',
      '/v1/test/other',
    ]) {
      const result = await call('GET', path);
      expectProblem(result, 404, 'route_not_found');
    }
  });

  it('wrong method → 405 problem with Allow', async () => {
    const account = await seedAccount();
    const cases: [string, string, string][] = [
      ['DELETE', '/v1/me', 'GET'],
      ['PUT', '/v1/invoices', 'GET, POST'],
      ['POST', '/v1/invoices/inv_000000000000000000000000', 'GET'],
      ['GET', '/v1/invoices/inv_000000000000000000000000/cancel', 'POST'],
      ['PATCH', '/v1/test/invoices/inv_000000000000000000000000/simulate-payment', 'POST'],
    ];
    for (const [method, path, allow] of cases) {
      const result = await call(method, path, { key: account.secret });
      expectProblem(result, 405, 'method_not_allowed');
      expect(result.headers.get('allow')).toBe(allow);
    }
  });

  it('every response carries a unique Request-Id', async () => {
    const account = await seedAccount();
    const ids = new Set<string>();
    for (const result of [
      await call('GET', '/v1/me', { key: account.secret }),
      await call('GET', '/v1/me'),
      await call('GET', '/v1/nope'),
    ]) {
      const id = result.headers.get('request-id');
      expect(id).toMatch(/^req_[0-9A-Za-z]+$/);
      ids.add(id ?? '');
    }
    expect(ids.size).toBe(3);
  });

  it('problem bodies leak no stack traces', async () => {
    const result = await call('POST', '/v1/invoices', {
      rawBody: '{',
      headers: { 'Content-Type': 'application/json' },
    });
    expect(result.text).not.toMatch(/at \w+ \(|node_modules|\.ts:\d+/);
  });
});
