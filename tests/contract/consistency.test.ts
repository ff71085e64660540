import { describe, expect, it } from 'vitest';
import { API_ERROR_CODES, ERROR_CATALOGUE } from '@/lib/errors';
import { fetchDocument } from '../support/contract';
import { invoiceCount, seedAccount, VALID_INVOICE } from '../support/fixtures';
import { baseUrl, call, expectProblem } from '../support/http';

/** The document's promises and the API's answers agree: problem links, media types, methods, caching, CORS. */
describe('problem type links resolve to the errors page', () => {
  it("a problem's absolute type URI leads to a page documenting its code", async () => {
    const problem = expectProblem(await call('GET', '/v1/me'), 401, 'missing_api_key');
    const type = new URL(problem.type);
    expect(type.protocol).toMatch(/^https?:$/);
    expect(type.pathname + type.hash).toBe('/docs/errors#missing_api_key');
    const page = await fetch(`${baseUrl()}${type.pathname}`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await page.text();
    for (const code of API_ERROR_CODES) {
      expect(html).toContain(`id="${code}"`);
      expect(html).toContain(
        ERROR_CATALOGUE[code].meaning.replaceAll("'", '&#x27;').replaceAll('"', '&quot;').slice(0, 20),
      );
    }
    expect(html).not.toContain('id="email_taken"'); // portal-only codes are not API errors
  });

  it('the errors page as JSON lists every API code from the catalogue with status, meaning and action', async () => {
    const response = await fetch(`${baseUrl()}/docs/errors.json`);
    expect(response.status).toBe(200);
    const { errors } = (await response.json()) as {
      errors: { code: string; type: string; status: number; title: string; meaning: string; action: string }[];
    };
    expect(errors.map((error) => error.code)).toEqual(API_ERROR_CODES);
    for (const error of errors) {
      const entry = ERROR_CATALOGUE[error.code as keyof typeof ERROR_CATALOGUE];
      expect(error).toMatchObject({
        status: entry.status,
        title: entry.title,
        meaning: entry.meaning,
        action: entry.action,
      });
      expect(error.type).toMatch(new RegExp(`^https?://[^/]+/docs/errors#${error.code}$`));
    }
  });

  it('the document lists only API codes, as an open set', async () => {
    const document = await fetchDocument(baseUrl());
    const code = document.components.schemas.Problem.properties.code;
    expect(code.enum).toBeUndefined();
    expect(code['x-extensible-enum']).toEqual(API_ERROR_CODES);
    expect(code.description).toMatch(/must accept codes they do not know/);
  });
});

describe('request media types', () => {
  it('a JSON body sent as text/plain → 415 unsupported_media_type, nothing created', async () => {
    const account = await seedAccount({ plan: 'Business' });
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'application/xml']) {
      const result = await call('POST', '/v1/invoices', {
        key: account.secret,
        rawBody: JSON.stringify(VALID_INVOICE),
        headers: { 'Content-Type': type },
      });
      const problem = expectProblem(result, 415, 'unsupported_media_type');
      expect(problem.detail).toMatch(/application\/json/);
    }
    expect(await invoiceCount(account.workspace.id)).toBe(0);
    const ok = await call('POST', '/v1/invoices', {
      key: account.secret,
      rawBody: JSON.stringify(VALID_INVOICE),
      headers: { 'Content-Type': 'Application/JSON; charset=utf-8' },
    });
    expect(ok.status).toBe(201);
  });

  it('a request without a body needs no Content-Type', async () => {
    const account = await seedAccount({ plan: 'Business' });
    const created = await call('POST', '/v1/invoices', { key: account.secret, body: VALID_INVOICE });
    const result = await call('POST', `/v1/invoices/${created.json.id}/cancel`, {
      key: account.secret,
      headers: { 'Content-Type': 'text/plain' },
    });
    expect(result.status).toBe(200);
  });
});

describe('methods, caching and CORS are documented and answered as documented', () => {
  it('every path documents OPTIONS (204 with the Allow component) and HEAD; the answers match', async () => {
    const document = await fetchDocument(baseUrl());
    for (const [path, item] of Object.entries(
      document.paths as Record<
        string,
        Record<string, { responses: Record<string, { headers?: Record<string, { $ref?: string }> }> }>
      >,
    )) {
      const methods = Object.keys(item)
        .filter((method) => method !== 'options' && method !== 'head')
        .map((method) => method.toUpperCase());
      expect(item.options?.responses['204']?.headers?.Allow?.$ref).toBe('#/components/headers/Allow');
      expect(item.head).toBeDefined();
      const concrete = path.replace('{id}', 'inv_000000000000000000000000');
      const options = await call('OPTIONS', concrete);
      expect(options.status).toBe(204);
      expect(options.headers.get('allow')).toBe(methods.join(', '));
      if (!methods.includes('GET')) {
        const head = await call('HEAD', concrete);
        expect(head.status).toBe(405);
        expect(head.headers.get('allow')).toBe(methods.join(', '));
        expect(item.head?.responses['405']?.headers?.Allow?.$ref).toBe('#/components/headers/Allow');
      }
    }
  });

  it('the OpenAPI document is no-store like every response, and refuses unknown query parameters too', async () => {
    const response = await fetch(`${baseUrl()}/v1/openapi.json`);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expectProblem(await call('GET', '/v1/openapi.json?v=2'), 400, 'validation_failed');
  });

  it('no CORS headers: a server-to-server API (decision in docs/api.md, stated in the document)', async () => {
    const account = await seedAccount({ plan: 'Business' });
    const result = await call('GET', '/v1/me', { key: account.secret, headers: { Origin: 'https://shop.example' } });
    expect(result.status).toBe(200);
    expect(result.headers.get('access-control-allow-origin')).toBeNull();
    const document = await fetchDocument(baseUrl());
    expect(document.info.description).toMatch(/no CORS headers/);
  });
});

describe('servers and the versioning policy', () => {
  it('servers[0] is the absolute public address; the versioning policy is served and linked', async () => {
    const document = await fetchDocument(baseUrl());
    expect(document.servers[0].url).toMatch(/^https?:\/\/[^/]+$/);
    const link = /\[versioning policy\]\((https?:\/\/[^)]+)\)/.exec(document.info.description)?.[1];
    expect(link).toBeDefined();
    const policy = await fetch(`${baseUrl()}${new URL(link!).pathname}`);
    expect(policy.status).toBe(200);
    // An HTML page rendered from docs/versioning.md: the Markdown's code spans are <code>, not backticks.
    expect(policy.headers.get('content-type')).toContain('text/html');
    const text = await policy.text();
    expect(text).toMatch(/What may change inside <code>\/v1<\/code>/);
    expect(text).toMatch(/What never changes inside <code>\/v1<\/code>/);
  });
});
