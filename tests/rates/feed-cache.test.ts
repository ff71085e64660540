// The feed source against real mock aggregators on the lane's chain: answers are cached for at most 30 s and
// checked at every use; concurrent misses share one read. Time is passed in (`now`), never waited for.
import { createPublicClient, http, type PublicClient } from 'viem';
import { describe, expect, it } from 'vitest';
import { ChainlinkFeedSource, CACHE_SECONDS, FeedUnavailable, REFRESH_AFTER_SECONDS } from '@/lib/rates/feed-source';
import { deployRateFeeds, setFeedAnswer } from '../../scripts/chain/rate-feeds';
import { chain } from '../support/chain';
import { nowSeconds, setRound } from './support';

function countingClient(): { client: PublicClient; calls: () => number } {
  let calls = 0;
  const client = createPublicClient({
    transport: http(chain.rpcUrl, {
      onFetchRequest: async (request) => {
        const body = (await request.clone().json()) as unknown;
        calls += Array.isArray(body) ? body.length : 1;
      },
    }),
  });
  return { client, calls: () => calls };
}

describe('ChainlinkFeedSource', () => {
  it('serves a cached answer for at most 30 s, then reads the new round; concurrent misses share one read', async () => {
    const feeds = await deployRateFeeds(chain.rpcUrl);
    const { client, calls } = countingClient();
    const source = new ChainlinkFeedSource(client, 'ethereum', (feed) => feeds[feed]);
    const t0 = new Date();

    const first = await Promise.all(Array.from({ length: 20 }, () => source.read('ETH/USD', t0)));
    expect(new Set(first.map((reading) => reading.answer))).toEqual(new Set([250_000_000_000n]));
    expect(calls()).toBe(2); // decimals + latestRoundData, once for all twenty

    await setFeedAnswer(chain.rpcUrl, feeds['ETH/USD'], '2500.12');
    // (Before REFRESH_AFTER_SECONDS: no background read either; the next test covers that.)
    const cached = await source.read('ETH/USD', new Date(t0.getTime() + (REFRESH_AFTER_SECONDS - 1) * 1000));
    expect(cached.answer).toBe(250_000_000_000n);
    expect(calls()).toBe(2);

    const fresh = await source.read('ETH/USD', new Date(t0.getTime() + CACHE_SECONDS * 1000));
    expect(fresh.answer).toBe(250_012_000_000n);
    expect(fresh.roundId).toBe(first[0]!.roundId + 1n);
    expect(calls()).toBe(3); // decimals are read once per feed, ever
  });

  it('renews a cached answer in the background after 20 s, so a steady flow of creates never waits for the RPC', async () => {
    const feeds = await deployRateFeeds(chain.rpcUrl);
    const { client, calls } = countingClient();
    const source = new ChainlinkFeedSource(client, 'ethereum', (feed) => feeds[feed]);
    const t0 = new Date();
    expect((await source.read('EUR/USD', t0)).answer).toBe(110_000_000n);
    await setFeedAnswer(chain.rpcUrl, feeds['EUR/USD'], '1.0842');
    const at = (seconds: number) => new Date(t0.getTime() + seconds * 1000);
    expect((await source.read('EUR/USD', at(REFRESH_AFTER_SECONDS - 1))).answer).toBe(110_000_000n);
    expect(calls()).toBe(2);
    // Past 20 s: answered from the cache at once, and one read starts behind it.
    expect((await source.read('EUR/USD', at(REFRESH_AFTER_SECONDS))).answer).toBe(110_000_000n);
    let renewed = 0n;
    for (let i = 0; i < 200 && renewed !== 108_420_000n; i++) {
      renewed = (await source.read('EUR/USD', at(REFRESH_AFTER_SECONDS + 1))).answer;
      if (renewed !== 108_420_000n) await new Promise((resolve) => setTimeout(resolve, 25));
    }
    expect(renewed).toBe(108_420_000n);
    expect(calls()).toBe(3);
    // The renewed answer counts from when its read began: still cached 29 s after that.
    expect((await source.read('EUR/USD', at(REFRESH_AFTER_SECONDS + CACHE_SECONDS - 1))).answer).toBe(108_420_000n);
  });

  it('re-checks a cached round at each use: one that went stale in the cache is refused, never served', async () => {
    const feeds = await deployRateFeeds(chain.rpcUrl);
    const { client } = countingClient();
    const source = new ChainlinkFeedSource(client, 'ethereum', (feed) => feeds[feed]);
    const now = nowSeconds();
    // Updated 4,190 s ago: fresh now (heartbeat 3,600 s + 600 s margin), stale 15 s later — inside the cache's 30 s.
    await setRound(feeds['BTC/USD'], {
      roundId: 9n,
      answer: 9_000_000_000_000n,
      startedAt: now - 4190n,
      updatedAt: now - 4190n,
      answeredInRound: 9n,
    });
    const t0 = new Date(Number(now) * 1000);
    expect((await source.read('BTC/USD', t0)).answer).toBe(9_000_000_000_000n);
    const later = new Date(t0.getTime() + 15_000);
    await expect(source.read('BTC/USD', later)).rejects.toBeInstanceOf(FeedUnavailable);
    await expect(source.read('BTC/USD', later)).rejects.toThrow(/BTC\/USD price feed is stale/);
  });

  it('names the missing setting when a feed has no address', async () => {
    const { client } = countingClient();
    const source = new ChainlinkFeedSource(client, 'polygon', () => null);
    await expect(source.read('EUR/USD', new Date())).rejects.toThrow(/set RATE_FEED_EUR_USD/);
  });
});
