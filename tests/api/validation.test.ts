import { beforeAll, describe, expect, it } from 'vitest';
import { invoiceCount, seedAccount, VALID_INVOICE } from '../support/fixtures';
import { call, expectProblem } from '../support/http';

/** Every bad body is a 400 (or 413) problem naming the field, and writes nothing. */
const BAD_BODIES: { name: string; body: Record<string, unknown>; path: string; message?: RegExp }[] = [
  { name: 'amount as a JSON number', body: { ...VALID_INVOICE, amount: 10.5 }, path: 'amount', message: /string/ },
  { name: 'amount missing', body: { currency: 'USDT', network: 'tron' }, path: 'amount' },
  { name: 'negative amount', body: { ...VALID_INVOICE, amount: '-1' }, path: 'amount' },
  { name: 'zero amount', body: { ...VALID_INVOICE, amount: '0' }, path: 'amount', message: /greater than 0/ },
  {
    name: 'zero amount with fraction',
    body: { ...VALID_INVOICE, amount: '0.000' },
    path: 'amount',
    message: /greater than 0/,
  },
  { name: 'exponent', body: { ...VALID_INVOICE, amount: '1e3' }, path: 'amount' },
  { name: 'plus sign', body: { ...VALID_INVOICE, amount: '+1' }, path: 'amount' },
  { name: 'leading zeros', body: { ...VALID_INVOICE, amount: '007' }, path: 'amount' },
  { name: 'trailing dot', body: { ...VALID_INVOICE, amount: '1.' }, path: 'amount' },
  {
    name: 'too precise for USDT',
    body: { ...VALID_INVOICE, amount: '1.1234567' },
    path: 'amount',
    message: /6 decimals/,
  },
  {
    name: 'too precise for BTC',
    body: { amount: '0.123456789', currency: 'BTC', network: 'bitcoin' },
    path: 'amount',
    message: /8 decimals/,
  },
  { name: 'unsupported currency', body: { ...VALID_INVOICE, currency: 'DOGE' }, path: 'currency' },
  {
    name: 'unsupported pair',
    body: { ...VALID_INVOICE, currency: 'BTC', network: 'tron' },
    path: 'network',
    message: /not supported/,
  },
  { name: 'unknown network', body: { ...VALID_INVOICE, network: 'solana' }, path: 'network' },
  { name: 'currency wrong type', body: { ...VALID_INVOICE, currency: 5 }, path: 'currency' },
  { name: 'description too long', body: { ...VALID_INVOICE, description: 'x'.repeat(501) }, path: 'description' },
  { name: 'order_id too long', body: { ...VALID_INVOICE, order_id: 'x'.repeat(129) }, path: 'order_id' },
  {
    name: 'too many metadata keys',
    body: { ...VALID_INVOICE, metadata: Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`k${i}`, 'v'])) },
    path: 'metadata',
  },
  {
    name: 'metadata value too long',
    body: { ...VALID_INVOICE, metadata: { note: 'x'.repeat(501) } },
    path: 'metadata.note',
  },
  { name: 'metadata value not a string', body: { ...VALID_INVOICE, metadata: { n: 1 } }, path: 'metadata.n' },
  { name: 'metadata not an object', body: { ...VALID_INVOICE, metadata: ['a'] }, path: 'metadata' },
  { name: 'expires_in too short', body: { ...VALID_INVOICE, expires_in: 299 }, path: 'expires_in' },
  { name: 'expires_in too long', body: { ...VALID_INVOICE, expires_in: 604801 }, path: 'expires_in' },
  { name: 'expires_in fractional', body: { ...VALID_INVOICE, expires_in: 300.5 }, path: 'expires_in' },
  { name: 'expires_in as a string', body: { ...VALID_INVOICE, expires_in: '3600' }, path: 'expires_in' },
  { name: 'unknown field', body: { ...VALID_INVOICE, colour: 'red' }, path: 'colour', message: /Unknown field/ },
];

describe('invoice body validation', () => {
  let account: Awaited<ReturnType<typeof seedAccount>>;
  beforeAll(async () => {
    account = await seedAccount();
  });

  for (const testCase of BAD_BODIES) {
    it(`${testCase.name} → 400 naming ${testCase.path}, nothing written`, async () => {
      const before = await invoiceCount(account.workspace.id);
      const problem = expectProblem(
        await call('POST', '/v1/invoices', { key: account.secret, body: testCase.body }),
        400,
        'validation_failed',
      );
      const error = problem.errors?.find((candidate) => candidate.path === testCase.path);
      expect(error, JSON.stringify(problem.errors)).toBeDefined();
      if (testCase.message) expect(error?.message).toMatch(testCase.message);
      expect(problem.detail).toContain(problem.errors?.[0]?.path ?? '');
      expect(await invoiceCount(account.workspace.id)).toBe(before);
    });
  }

  it('accepts the largest precision of each currency', async () => {
    for (const body of [
      { amount: '0.000001', currency: 'USDT', network: 'polygon' },
      { amount: '1.123456789012345678', currency: 'ETH', network: 'base' },
      { amount: '0.00000001', currency: 'BTC', network: 'bitcoin' },
    ]) {
      const result = await call('POST', '/v1/invoices', { key: account.secret, body });
      expect(result.status, result.text).toBe(201);
      expect(result.json.amount).toBe(body.amount);
    }
  });

  for (const [name, rawBody] of [
    ['malformed JSON', '{"amount": "1"'],
    ['not JSON at all', 'amount=1&currency=USDT'],
  ] as const) {
    it(`${name} → 400 malformed_json, nothing written`, async () => {
      const before = await invoiceCount(account.workspace.id);
      expectProblem(
        await call('POST', '/v1/invoices', {
          key: account.secret,
          rawBody,
          headers: { 'Content-Type': 'application/json' },
        }),
        400,
        'malformed_json',
      );
      expect(await invoiceCount(account.workspace.id)).toBe(before);
    });
  }

  it('a JSON array, string or null body → 400 validation_failed', async () => {
    for (const rawBody of ['[]', '"x"', 'null', '42']) {
      expectProblem(
        await call('POST', '/v1/invoices', {
          key: account.secret,
          rawBody,
          headers: { 'Content-Type': 'application/json' },
        }),
        400,
        'validation_failed',
      );
    }
  });

  it('a body over 64 KiB → 413, nothing written', async () => {
    const before = await invoiceCount(account.workspace.id);
    const body = { ...VALID_INVOICE, description: 'x'.repeat(70 * 1024) };
    expectProblem(await call('POST', '/v1/invoices', { key: account.secret, body }), 413, 'payload_too_large');
    expect(await invoiceCount(account.workspace.id)).toBe(before);
  });

  it('a huge chunked body without Content-Length → 413', async () => {
    const chunk = new TextEncoder().encode('x'.repeat(16 * 1024));
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent++ < 16) controller.enqueue(chunk);
        else controller.close();
      },
    });
    const response = await fetch(`${process.env.TEST_BASE_URL}/v1/invoices`, {
      method: 'POST',
      headers: { 'X-API-Key': account.secret, 'Content-Type': 'application/json' },
      body: stream,
      duplex: 'half',
    } as RequestInit);
    expect(response.status).toBe(413);
    expect((await response.json()).code).toBe('payload_too_large');
  });
});
