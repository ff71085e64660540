// Invoices priced in USD and EUR against the suite's server, whose rates come from the local chain's mock
// Chainlink feeds (deployed by startLocalChain at the documented answers: ETH/USD 2500, BTC/USD 100000, EUR/USD 1.10).
import { describe, expect, it } from 'vitest';
import { findRateFeed, setFeedAnswer } from '../../scripts/chain/rate-feeds';
import { chain } from '../support/chain';
import { createKey, invoiceCount, seedAccount, setEvmWallet } from '../support/fixtures';
import { call, expectProblem } from '../support/http';

async function feed(pair: 'ETH/USD' | 'BTC/USD' | 'EUR/USD') {
  const address = await findRateFeed(chain.rpcUrl, pair);
  if (!address) throw new Error(`no ${pair} feed on the suite's chain`);
  return address;
}

describe('invoices priced in fiat', () => {
  it('converts a USD price to ETH at the feed, rounded up, and records the rate on the invoice and its event', async () => {
    const { secret } = await seedAccount();
    const created = await call('POST', '/v1/invoices', {
      key: secret,
      body: { price_amount: '49.00', price_currency: 'USD', currency: 'ETH', network: 'ethereum' },
    });
    expect(created.status).toBe(201);
    const invoice = created.json;
    // Whatever round the feed is at, amount = ⌈49 / answer⌉ at 18 decimals, and the source names that round.
    expect(invoice.price_amount).toBe('49.00');
    expect(invoice.price_currency).toBe('USD');
    expect(invoice.rate_source).toMatch(/^chainlink:ethereum:ETH\/USD@\d+$/);
    expect(new Date(invoice.rate_at).getTime()).toBeLessThanOrEqual(Date.now());
    expect(invoice.amount).toMatch(/^0\.\d{1,18}$/);
    expect(invoice.pay_amount).toBe(invoice.amount); // test invoice

    const events = await call('GET', '/v1/events?type=invoice.created&limit=1', { key: secret });
    const snapshot = events.json.data[0].data.object;
    expect(snapshot.id).toBe(invoice.id);
    expect({
      price_amount: snapshot.price_amount,
      rate: snapshot.rate,
      rate_source: snapshot.rate_source,
      rate_at: snapshot.rate_at,
      amount: snapshot.amount,
    }).toEqual({
      price_amount: '49.00',
      rate: invoice.rate,
      rate_source: invoice.rate_source,
      rate_at: invoice.rate_at,
      amount: invoice.amount,
    });
  });

  it('shows the documented figure: $49.00 = 0.0196 ETH at ETH/USD 2500', async () => {
    const { secret } = await seedAccount();
    await setFeedAnswer(chain.rpcUrl, await feed('ETH/USD'), '2500');
    // The server may hold the previous answer for up to 30 s: wait for the new round to show in /v1/rates.
    for (let i = 0; ; i++) {
      const rate = await call('GET', '/v1/rates?currency=ETH&price_currency=USD', { key: secret });
      expect(rate.status).toBe(200);
      if (rate.json.price_per_unit === '2500') break;
      if (i > 200) throw new Error(`rate never reached 2500: ${rate.text}`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    const created = await call('POST', '/v1/invoices', {
      key: secret,
      body: { price_amount: '49', price_currency: 'USD', currency: 'ETH', network: 'ethereum' },
    });
    expect(created.json).toMatchObject({ amount: '0.0196', price_amount: '49.00', rate: '0.0004' });
  }, 90_000);

  it('never changes an invoice when the rate moves after creation', async () => {
    const { workspace } = await seedAccount();
    const live = await createKey(workspace.id, { environment: 'live' });
    await setEvmWallet(workspace.id);
    const created = await call('POST', '/v1/invoices', {
      key: live.secret,
      body: { price_amount: '120.50', price_currency: 'USD', currency: 'ETH', network: 'ethereum' },
    });
    expect(created.status).toBe(201);
    await setFeedAnswer(chain.rpcUrl, await feed('ETH/USD'), '3100.77');
    const read = await call('GET', `/v1/invoices/${created.json.id}`, { key: live.secret });
    for (const field of ['amount', 'pay_amount', 'payment_uri', 'price_amount', 'rate', 'rate_source', 'rate_at']) {
      expect(read.json[field]).toBe(created.json[field]);
    }
    // pay_amount is amount plus the unique suffix, as for any live invoice.
    expect(BigInt(created.json.pay_amount.replace('.', '').padEnd(30, '0'))).toBeGreaterThan(
      BigInt(created.json.amount.replace('.', '').padEnd(30, '0')),
    );
  });

  it('converts EUR through EUR/USD: €10 in BTC at the two feeds, rounded up to 8 decimals', async () => {
    const { secret } = await seedAccount();
    const rate = await call('GET', '/v1/rates?currency=BTC&price_currency=EUR', { key: secret });
    expect(rate.status).toBe(200);
    expect(rate.json.rate_source).toMatch(/^chainlink:ethereum:BTC\/USD@\d+\+EUR\/USD@\d+$/);
    const created = await call('POST', '/v1/invoices', {
      key: secret,
      body: { price_amount: '10', price_currency: 'EUR', currency: 'BTC', network: 'bitcoin' },
    });
    expect(created.status).toBe(201);
    expect(created.json.rate_source).toBe(rate.json.rate_source);
    // At BTC/USD 100000 and EUR/USD 1.10 (unchanged in this suite): 10 × 1.10 / 100000 = 0.00011 BTC.
    expect(created.json).toMatchObject({
      amount: '0.00011',
      price_amount: '10.00',
      price_currency: 'EUR',
      rate: '0.000011',
    });
  });

  it('refuses amount with price_amount, a price without its currency, other currencies and sub-cent prices (nothing written)', async () => {
    const { workspace, secret } = await seedAccount();
    const cases: Array<[Record<string, unknown>, string]> = [
      [
        { amount: '1', price_amount: '49.00', price_currency: 'USD', currency: 'ETH', network: 'ethereum' },
        'price_amount',
      ],
      [{ price_amount: '49.00', currency: 'ETH', network: 'ethereum' }, 'price_currency'],
      [{ price_currency: 'USD', currency: 'ETH', network: 'ethereum' }, 'price_amount'],
      [{ price_amount: '49.00', price_currency: 'GBP', currency: 'ETH', network: 'ethereum' }, 'price_currency'],
      [{ price_amount: '49.001', price_currency: 'USD', currency: 'ETH', network: 'ethereum' }, 'price_amount'],
      [{ price_amount: 49, price_currency: 'USD', currency: 'ETH', network: 'ethereum' }, 'price_amount'],
      [{ price_amount: '0.00', price_currency: 'EUR', currency: 'USDT', network: 'tron' }, 'price_amount'],
      [{ currency: 'ETH', network: 'ethereum' }, 'amount'],
    ];
    for (const [body, path] of cases) {
      const problem = expectProblem(
        await call('POST', '/v1/invoices', { key: secret, body }),
        400,
        'validation_failed',
      );
      expect(
        problem.errors?.map((error) => error.path),
        JSON.stringify(body),
      ).toContain(path);
    }
    expect(await invoiceCount(workspace.id)).toBe(0);
  });
});

describe('GET /v1/rates', () => {
  it('answers what a create would lock, needs invoices:read, and shows nothing of any workspace', async () => {
    const reader = await seedAccount({ scopes: ['invoices:read'] });
    const writer = await createKey(reader.workspace.id, { scopes: ['invoices:write'] });
    const rate = await call('GET', '/v1/rates?currency=USDC&price_currency=USD', { key: reader.secret });
    expect(rate.status).toBe(200);
    expect(Object.keys(rate.json).sort()).toEqual(
      [
        'currency',
        'environment',
        'object',
        'price_currency',
        'price_per_unit',
        'rate',
        'rate_at',
        'rate_source',
      ].sort(),
    );
    expect(rate.json).toMatchObject({
      object: 'rate',
      environment: 'test',
      currency: 'USDC',
      price_currency: 'USD',
      rate: '1',
      price_per_unit: '1',
    });

    const problem = expectProblem(
      await call('GET', '/v1/rates?currency=USDC&price_currency=USD', { key: writer.secret }),
      403,
      'missing_scope',
    );
    expect(problem.detail).toBe('API key scope invoices:read is required');
    expectProblem(await call('GET', '/v1/rates?currency=USDC&price_currency=USD'), 401, 'missing_api_key');
    expectProblem(
      await call('GET', '/v1/rates?currency=DOGE&price_currency=USD', { key: reader.secret }),
      400,
      'validation_failed',
    );
    expectProblem(await call('GET', '/v1/rates?currency=ETH', { key: reader.secret }), 400, 'validation_failed');

    // A priced invoice stays its workspace's: another tenant's key cannot read it.
    const owner = await seedAccount();
    const other = await seedAccount();
    const created = await call('POST', '/v1/invoices', {
      key: owner.secret,
      body: { price_amount: '5', price_currency: 'EUR', currency: 'USDT', network: 'tron' },
    });
    expect(created.status).toBe(201);
    expectProblem(
      await call('GET', `/v1/invoices/${created.json.id}`, { key: other.secret }),
      404,
      'invoice_not_found',
    );
  });
});
