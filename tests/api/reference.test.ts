import { describe, expect, it } from 'vitest';
import { ENDPOINTS } from '@/lib/api/endpoints';
import { apiReference, SDK_CALLS } from '@/lib/api/reference';
import { inlineMarkdownToHtml, markdownToHtml } from '@/lib/docs/markdown';
import { Client } from '../../sdk/src/index';

const reference = apiReference();
const operations = reference.sections.flatMap((section) => section.operations);

describe('the API reference page content (lib/api/reference.ts)', () => {
  it('lists every operation once, without the OPTIONS/HEAD twins', () => {
    expect(operations.map((op) => op.id).sort()).toEqual(
      [...ENDPOINTS.map((endpoint) => endpoint.operationId), 'getOpenApiDocument'].sort(),
    );
    expect(operations.every((op) => op.method === 'get' || op.method === 'post')).toBe(true);
  });

  it('has an SDK example for every API operation, calling a method the SDK has', () => {
    const client = new Client({ apiKey: 'test_x', baseUrl: 'http://127.0.0.1:9' }) as unknown as Record<
      string,
      unknown
    >;
    for (const endpoint of ENDPOINTS) {
      const sdk = SDK_CALLS[endpoint.operationId];
      expect(sdk, endpoint.operationId).toBeDefined();
      const method = sdk!.call
        .split('.')
        .slice(1)
        .reduce<unknown>((object, name) => (object as Record<string, unknown>)?.[name], client);
      expect(typeof method, sdk!.call).toBe('function');
      const op = operations.find((candidate) => candidate.id === endpoint.operationId)!;
      expect(op.examples.sdk).toContain(`await ${sdk!.call}(`);
      expect(op.examples.curl).toMatch(/^curl /);
    }
  });

  it('sends example inputs the API accepts, and shows example responses of the documented shape', () => {
    for (const endpoint of ENDPOINTS) {
      const op = operations.find((candidate) => candidate.id === endpoint.operationId)!;
      const body = /-d '([\s\S]*)'$/.exec(op.examples.curl)?.[1];
      if (endpoint.body && body) expect(endpoint.body.safeParse(JSON.parse(body)).success, `${op.id} body`).toBe(true);
      const url = new URL(/'(http[^']+)'/.exec(op.examples.curl)![1]!);
      if (endpoint.query)
        expect(endpoint.query.safeParse(Object.fromEntries(url.searchParams)).success, `${op.id} query`).toBe(true);
      if (op.examples.response)
        expect(endpoint.response.safeParse(op.examples.response.body).error?.issues ?? [], `${op.id} response`).toEqual(
          [],
        );
    }
    const create = operations.find((op) => op.id === 'createInvoice')!;
    expect(create.examples.curl).toContain('-H "X-API-Key: $CRYPTO_INVOICING_API_KEY"');
    expect(create.examples.sdk).toContain("amount: '49.99'");
  });
});

describe('Markdown (lib/docs/markdown.ts)', () => {
  it('renders code spans and links, escapes raw HTML and refuses script links', () => {
    expect(inlineMarkdownToHtml('Scope `invoices:write`, see [errors](https://x.test/docs/errors)')).toBe(
      'Scope <code>invoices:write</code>, see <a href="https://x.test/docs/errors">errors</a>',
    );
    expect(markdownToHtml('<script>alert(1)</script>')).not.toContain('<script>');
    expect(markdownToHtml('[x](javascript:alert(1))')).not.toContain('href="javascript');
    expect(markdownToHtml(reference.description)).not.toContain('`');
  });
});
