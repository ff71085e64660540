import { env } from '../env';
import { EVM_NETWORKS, type EvmNetwork } from '../chain/networks';
import type { Currency } from '../invoices/currencies';

/**
 * The price feeds invoices priced in fiat are converted with (docs/rates.md): Chainlink aggregators read over
 * RATES_NETWORK's RPC (default ethereum, the network's RPC_URL_<NETWORK>), at RATE_FEED_<BASE>_<QUOTE> or, on
 * ethereum, the real mainnet feeds. Every feed quotes in USD; EUR prices go through EUR/USD.
 */
export const PRICE_CURRENCIES = ['USD', 'EUR'] as const;
export type PriceCurrency = (typeof PRICE_CURRENCIES)[number];

/** Fiat amounts have their ISO 4217 minor units: cents. */
export const PRICE_DECIMALS: Record<PriceCurrency, number> = { USD: 2, EUR: 2 };

export const FEEDS = ['ETH/USD', 'BTC/USD', 'USDT/USD', 'USDC/USD', 'EUR/USD'] as const;
export type Feed = (typeof FEEDS)[number];

/** The feed that prices each crypto currency in USD. */
export const CURRENCY_FEED: Record<Currency, Feed> = {
  ETH: 'ETH/USD',
  BTC: 'BTC/USD',
  USDT: 'USDT/USD',
  USDC: 'USDC/USD',
};

/** The feed that converts a fiat price to USD; null for USD itself. */
export const PRICE_CURRENCY_FEED: Record<PriceCurrency, Feed | null> = { USD: null, EUR: 'EUR/USD' };

/** Chainlink's Ethereum mainnet proxies (data.chain.link), the default of RATE_FEED_<BASE>_<QUOTE> on ethereum. */
export const MAINNET_FEEDS: Record<Feed, `0x${string}`> = {
  'ETH/USD': '0x5f4eC3Df9cbd43714FE2740f5E3616155c5b8419',
  'BTC/USD': '0xF4030086522a5bEEa4988F8cA5B36dbC97BeE88c',
  'USDT/USD': '0x3E7d1eAB13ad0104d2750B8863b489D65364e32D',
  'USDC/USD': '0x8fFfFfd4AfB6115b954Bd326cbe7B4BA576818f6',
  'EUR/USD': '0xb49f677943BC038e9857d61E7d053CaA2C1734C1',
};

/**
 * Each mainnet feed's heartbeat (the longest it goes without a new round when the price moves less than its
 * deviation threshold): ETH/USD and BTC/USD one hour, the stablecoins and EUR/USD one day.
 */
export const FEED_HEARTBEAT_SECONDS: Record<Feed, number> = {
  'ETH/USD': 3600,
  'BTC/USD': 3600,
  'USDT/USD': 86_400,
  'USDC/USD': 86_400,
  'EUR/USD': 86_400,
};

/** Added to the heartbeat before a round counts as stale: a new round takes a few blocks to land. */
export const HEARTBEAT_MARGIN_SECONDS = 600;

export function feedSettingName(feed: Feed): string {
  return `RATE_FEED_${feed.replace('/', '_')}`;
}

export function ratesNetwork(): EvmNetwork {
  return env().RATES_NETWORK;
}

/** The feed's contract on RATES_NETWORK, or null when none is configured (no default off ethereum). */
export function feedAddress(feed: Feed): `0x${string}` | null {
  const configured = env()[feedSettingName(feed) as `RATE_FEED_${string}` & keyof ReturnType<typeof env>];
  if (typeof configured === 'string' && configured !== '') return configured as `0x${string}`;
  return ratesNetwork() === 'ethereum' ? MAINNET_FEEDS[feed] : null;
}

/** How old the feed's latest round may be, in seconds: RATE_MAX_AGE_SECONDS, else its heartbeat plus a margin. */
export function maxAgeSeconds(feed: Feed): number {
  return env().RATE_MAX_AGE_SECONDS ?? FEED_HEARTBEAT_SECONDS[feed] + HEARTBEAT_MARGIN_SECONDS;
}

export function isRatesNetwork(value: string): value is EvmNetwork {
  return (EVM_NETWORKS as readonly string[]).includes(value);
}
