import { describe, expect, it } from 'vitest';
import { invoiceCount, seedAccount, VALID_INVOICE } from '../support/fixtures';
import { call, expectProblem } from '../support/http';

/**
 * Inputs found by probing that used to reach PostgreSQL or Next.js's router and come back as a 500:
 * NUL characters in free text (PostgreSQL text and jsonb refuse them) and paths that are not valid
 * percent-encoding (Next.js fails to decode the route's params before any handler runs).
 */
describe('hostile inputs', () => {
  it.each([
    ['description', { description: 'a\u0000b' }],
    ['order_id', { order_id: 'ord\u0000' }],
    ['metadata.k', { metadata: { k: 'v\u0000' } }],
    ['metadata.k\u0000', { metadata: { 'k\u0000': 'v' } }],
    ['description', { description: 'lone \ud800 surrogate' }],
    ['metadata.k', { metadata: { k: '\udc00' } }],
  ])('free text the database cannot store → 400 naming %j, nothing written', async (path, fields) => {
    const account = await seedAccount();
    const result = await call('POST', '/v1/invoices', { key: account.secret, body: { ...VALID_INVOICE, ...fields } });
    const problem = expectProblem(result, 400, 'validation_failed');
    expect(problem.errors?.map((error) => error.path)).toContain(path);
    expect(await invoiceCount(account.workspace.id)).toBe(0);
  });

  it('well-formed non-ASCII text (emoji, right-to-left mark) is stored and read back unchanged', async () => {
    const account = await seedAccount();
    const description = 'Zahlung 😀 \u202eabc\u202c — ok';
    const created = await call('POST', '/v1/invoices', {
      key: account.secret,
      body: { ...VALID_INVOICE, description, metadata: { clé: 'värde' } },
    });
    expect(created.status).toBe(201);
    const read = await call('GET', `/v1/invoices/${created.json.id}`, { key: account.secret });
    expect(read.json.description).toBe(description);
    expect(read.json.metadata).toEqual({ clé: 'värde' });
  });

  it.each([
    ['GET', '/v1/invoices/%E0%A4%A'],
    ['POST', '/v1/invoices/%E0%A4%A/cancel'],
    ['POST', '/v1/test/invoices/%/simulate-payment'],
    ['GET', '/v1/%'],
    ['GET', '/v1/me/%zz'],
  ])('%s %s (not valid percent-encoding) → 404 route_not_found problem, not a 500', async (method, path) => {
    const account = await seedAccount();
    const result = await call(method, path, { key: account.secret });
    expectProblem(result, 404, 'route_not_found');
  });

  it('valid percent-encoding still reaches the operation', async () => {
    const account = await seedAccount();
    const created = await call('POST', '/v1/invoices', { key: account.secret, body: VALID_INVOICE });
    const id = created.json.id as string;
    const encoded = `/v1/invoices/${id.slice(0, 4)}%${id.charCodeAt(4).toString(16).toUpperCase()}${id.slice(5)}`;
    const result = await call('GET', encoded, { key: account.secret });
    expect(result.status, result.text).toBe(200);
    expect(result.json.id).toBe(id);
  });
});
