// No fresh rate → 503 rate_unavailable with Retry-After, and no invoice: an app instance of this file's own,
// reading feeds of this file's own on the suite's chain, each broken a different way before its first read (so
// no cached answer hides it). A second instance without any feed shows test mode's documented fixed rates.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deployRateFeeds, rateFeedSettings, type RateFeeds } from '../../scripts/chain/rate-feeds';
import { startAdditionalApp, type AppInstance } from '../setup/app';
import { createKey, invoiceCount, seedAccount, setEvmWallet } from '../support/fixtures';
import { call, expectProblem } from '../support/http';
import { nowSeconds, setRound } from './support';

let feeds: RateFeeds;
let broken: AppInstance;
let withoutFeeds: AppInstance;

beforeAll(async () => {
  feeds = await deployRateFeeds((await import('../support/chain')).chain.rpcUrl);
  const now = nowSeconds();
  // ETH/USD: last updated two hours ago (heartbeat 1 h + margin). BTC/USD: answered 0. USDC/USD: negative.
  // USDT/USD: round 7 carries round 6's answer. EUR/USD stays healthy, so EUR invoices fail on their base feed.
  await setRound(feeds['ETH/USD'], {
    roundId: 5n,
    answer: 250_000_000_000n,
    startedAt: now - 7200n,
    updatedAt: now - 7200n,
    answeredInRound: 5n,
  });
  await setRound(feeds['BTC/USD'], { roundId: 5n, answer: 0n, startedAt: now, updatedAt: now, answeredInRound: 5n });
  await setRound(feeds['USDC/USD'], {
    roundId: 5n,
    answer: -100_000_000n,
    startedAt: now,
    updatedAt: now,
    answeredInRound: 5n,
  });
  await setRound(feeds['USDT/USD'], {
    roundId: 7n,
    answer: 100_000_000n,
    startedAt: now,
    updatedAt: now,
    answeredInRound: 6n,
  });
  [broken, withoutFeeds] = await Promise.all([
    startAdditionalApp({ env: rateFeedSettings(feeds) }),
    // No RPC on the rates network: no feeds at all.
    startAdditionalApp({ env: { RATES_NETWORK: 'polygon', RPC_URL_POLYGON: '' } }),
  ]);
}, 240_000);

afterAll(async () => {
  await Promise.all([broken?.stop(), withoutFeeds?.stop()]);
});

describe('no fresh rate', () => {
  it.each([
    ['ETH', 'ethereum', 'USD', /ETH\/USD price feed is stale/],
    ['BTC', 'bitcoin', 'EUR', /BTC\/USD price feed answered 0/],
    ['USDC', 'ethereum', 'USD', /USDC\/USD price feed answered -100000000/],
    ['USDT', 'tron', 'USD', /USDT\/USD price feed round 7 carries the answer of round 6/],
  ] as const)(
    '%s priced in %s→%s: 503 rate_unavailable with Retry-After, and no invoice',
    async (currency, network, priceCurrency, why) => {
      const { workspace, secret } = await seedAccount();
      const live = await createKey(workspace.id, { environment: 'live' });
      await setEvmWallet(workspace.id);
      // Live invoices exist only on watched networks (the suite watches ethereum): elsewhere a test key alone.
      for (const key of network === 'ethereum' ? [secret, live.secret] : [secret]) {
        const body = { price_amount: '49.00', price_currency: priceCurrency, currency, network };
        const result = await call('POST', '/v1/invoices', { base: broken.baseUrl, key, body });
        const problem = expectProblem(result, 503, 'rate_unavailable');
        expect(problem.detail).toMatch(why);
        expect(Number(result.headers.get('retry-after'))).toBeGreaterThan(0);
        const rate = await call('GET', `/v1/rates?currency=${currency}&price_currency=${priceCurrency}`, {
          base: broken.baseUrl,
          key,
        });
        expectProblem(rate, 503, 'rate_unavailable');
      }
      expect(await invoiceCount(workspace.id)).toBe(0);
      // Priced in crypto, the same create still works: only the rate is missing.
      const plain = await call('POST', '/v1/invoices', {
        base: broken.baseUrl,
        key: secret,
        body: { amount: '1', currency, network },
      });
      expect(plain.status).toBe(201);
    },
  );
});

describe('test mode without feeds', () => {
  it('uses the documented fixed rates, named test:fixed; live keys get 503, never a guess', async () => {
    const { workspace, secret } = await seedAccount();
    const live = await createKey(workspace.id, { environment: 'live' });
    const created = await call('POST', '/v1/invoices', {
      base: withoutFeeds.baseUrl,
      key: secret,
      body: { price_amount: '49.00', price_currency: 'USD', currency: 'ETH', network: 'ethereum' },
    });
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({
      amount: '0.0196',
      rate: '0.0004',
      rate_source: 'test:fixed:ETH/USD',
      price_amount: '49.00',
    });
    const eur = await call('GET', '/v1/rates?currency=BTC&price_currency=EUR', {
      base: withoutFeeds.baseUrl,
      key: secret,
    });
    expect(eur.json).toMatchObject({
      rate: '0.000011',
      rate_source: 'test:fixed:BTC/USD+EUR/USD',
      environment: 'test',
    });

    const refused = await call('GET', '/v1/rates?currency=ETH&price_currency=USD', {
      base: withoutFeeds.baseUrl,
      key: live.secret,
    });
    expect(expectProblem(refused, 503, 'rate_unavailable').detail).toMatch(/RPC_URL_POLYGON/);
    expect(await invoiceCount(workspace.id)).toBe(1);
  });
});
