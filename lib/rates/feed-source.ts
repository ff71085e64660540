import type { PublicClient } from 'viem';
import { evmClient } from '../chain/evm/client';
import { rpcSettingName, rpcUrls } from '../chain/networks';
import { readRound, roundProblem, type RoundData } from './aggregator';
import { feedAddress, feedSettingName, maxAgeSeconds, ratesNetwork, type Feed } from './feeds';

/** A feed's answer that passed the checks: the price of the feed's base in its quote, as answer / 10^decimals. */
export interface FeedReading {
  feed: Feed;
  answer: bigint;
  decimals: number;
  roundId: bigint;
  updatedAt: Date;
}

/** No usable answer; `retryAfterSeconds` is when asking again may help. */
export class FeedUnavailable extends Error {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(message);
    this.name = 'FeedUnavailable';
  }
}

/** Where answers come from. Implementations throw FeedUnavailable, never return a guess. */
export interface FeedSource {
  /** e.g. `chainlink:ethereum` */
  readonly name: string;
  read(feed: Feed, now: Date): Promise<FeedReading>;
}

/** A cached answer is used for at most this long (docs/rates.md), and only while its round is still fresh. */
export const CACHE_SECONDS = 30;
/**
 * From this age on, a use of the cached answer also starts a read in the background (refresh-ahead): under a
 * steady flow of creates the answer is renewed before it expires, so no create waits for the RPC.
 */
export const REFRESH_AFTER_SECONDS = 20;
/** After a failed read, the feed is not asked again for this long (callers get 503 with this Retry-After). */
const FAILURE_HOLD_SECONDS = 5;

const toSeconds = (date: Date) => BigInt(Math.floor(date.getTime() / 1000));

function checked(feed: Feed, round: RoundData, now: Date): FeedReading {
  const problem = roundProblem(round, toSeconds(now), maxAgeSeconds(feed));
  if (problem) throw new FeedUnavailable(`The ${feed} price feed ${problem}`, 60);
  return {
    feed,
    answer: round.answer,
    decimals: round.decimals,
    roundId: round.roundId,
    updatedAt: new Date(Number(round.updatedAt) * 1000),
  };
}

/**
 * Chainlink aggregators on RATES_NETWORK, read with viem over that network's RPC, each answer checked at every
 * use and kept ≤ CACHE_SECONDS (renewed in the background after REFRESH_AFTER_SECONDS). Concurrent misses of one
 * feed share one read, so a burst of creates makes one pair of RPC calls; a failed read is held
 * FAILURE_HOLD_SECONDS so a dead RPC is not hammered.
 */
export class ChainlinkFeedSource implements FeedSource {
  readonly name: string;
  private readonly decimals = new Map<string, number>();
  private readonly cache = new Map<Feed, { round: RoundData; readAt: number }>();
  private readonly inFlight = new Map<Feed, Promise<RoundData>>();
  private readonly failures = new Map<Feed, { error: FeedUnavailable; at: number }>();

  constructor(
    private readonly client: PublicClient,
    network: string,
    private readonly address: (feed: Feed) => `0x${string}` | null,
  ) {
    this.name = `chainlink:${network}`;
  }

  async read(feed: Feed, now: Date): Promise<FeedReading> {
    const at = now.getTime();
    const cached = this.cache.get(feed);
    if (cached && at - cached.readAt < CACHE_SECONDS * 1000 && at >= cached.readAt) {
      try {
        const reading = checked(feed, cached.round, now);
        if (at - cached.readAt >= REFRESH_AFTER_SECONDS * 1000 && !this.inFlight.has(feed))
          this.refreshInBackground(feed, at);
        return reading;
      } catch {
        // Gone stale in the cache: read again, a newer round may exist.
      }
    }
    const failure = this.failures.get(feed);
    if (failure && at - failure.at < FAILURE_HOLD_SECONDS * 1000 && at >= failure.at) throw failure.error;
    let round: RoundData;
    try {
      round = await this.fetch(feed);
    } catch (error) {
      const unavailable =
        error instanceof FeedUnavailable
          ? error
          : new FeedUnavailable(
              `The ${feed} price feed could not be read over the ${this.name.split(':')[1]} RPC`,
              FAILURE_HOLD_SECONDS,
            );
      this.failures.set(feed, { error: unavailable, at });
      throw unavailable;
    }
    this.failures.delete(feed);
    this.cache.set(feed, { round, readAt: at });
    return checked(feed, round, now);
  }

  /** Renews the cached answer without anyone waiting for it; a failure leaves the entry to expire. */
  private refreshInBackground(feed: Feed, at: number): void {
    Promise.resolve()
      .then(() => this.fetch(feed))
      .then(
        (round) => {
          const current = this.cache.get(feed);
          if (!current || current.readAt <= at) this.cache.set(feed, { round, readAt: at });
        },
        () => undefined,
      );
  }

  private fetch(feed: Feed): Promise<RoundData> {
    const address = this.address(feed);
    if (!address) throw new FeedUnavailable(`No ${feed} price feed is configured: set ${feedSettingName(feed)}`, 60);
    let pending = this.inFlight.get(feed);
    if (!pending) {
      pending = readRound(this.client, address, this.decimals).finally(() => this.inFlight.delete(feed));
      this.inFlight.set(feed, pending);
    }
    return pending;
  }
}

/**
 * Documented fixed test rates (docs/rates.md), used by test invoices when no feed is configured (RATES_NETWORK
 * has no RPC URL), and named in rate_source as `test:fixed`. Never used for live invoices.
 */
export const TEST_FIXED_ANSWERS: Record<Feed, string> = {
  'ETH/USD': '2500.00',
  'BTC/USD': '100000.00',
  'USDT/USD': '1.00',
  'USDC/USD': '1.00',
  'EUR/USD': '1.10',
};
const TEST_FIXED_DECIMALS = 8;

export const fixedTestSource: FeedSource = {
  name: 'test:fixed',
  read: async (feed, now) => {
    const [whole, fraction = ''] = TEST_FIXED_ANSWERS[feed].split('.');
    const answer = BigInt(whole! + fraction.padEnd(TEST_FIXED_DECIMALS, '0'));
    return { feed, answer, decimals: TEST_FIXED_DECIMALS, roundId: 0n, updatedAt: now };
  },
};

let configured: { key: string; source: FeedSource } | undefined;

/**
 * The feeds of this deployment, or null when RATES_NETWORK has no RPC URL. One cache per process; its RPC calls
 * are counted apart from the watcher's (`rates:<network>`).
 */
export function chainlinkSource(): FeedSource | null {
  const network = ratesNetwork();
  const urls = rpcUrls(network);
  if (urls.length === 0) return null;
  const key = `${network} ${urls.join(',')}`;
  if (configured?.key !== key)
    configured = { key, source: new ChainlinkFeedSource(evmClient(`rates:${network}`, urls), network, feedAddress) };
  return configured.source;
}

export function notConfiguredMessage(): string {
  return `No price feeds are configured: set ${rpcSettingName(ratesNetwork())} (RATES_NETWORK's RPC) to read them`;
}
