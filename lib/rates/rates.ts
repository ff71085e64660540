import { AppError } from '../errors';
import type { KeyEnvironment } from '../keys/api-key-secret';
import { CURRENCY_RULES, type Currency } from '../invoices/currencies';
import { ceilDiv, formatSignificant, formatUnits, parseDecimal, pow10, type Ratio } from './decimal';
import { CURRENCY_FEED, PRICE_CURRENCY_FEED, type PriceCurrency } from './feeds';
import {
  chainlinkSource,
  fixedTestSource,
  FeedUnavailable,
  notConfiguredMessage,
  type FeedReading,
  type FeedSource,
} from './feed-source';

/**
 * Rates for invoices priced in fiat (docs/rates.md): what a create locks in, from the feeds' integers to the
 * invoice's amount in exact BigInt arithmetic, rounded once, up, to the currency's decimals.
 */

/** `rate` is shown to this many significant digits; the amount is computed from the exact ratio, not from it. */
export const RATE_SIGNIFICANT_DIGITS = 18;

export interface RateQuote {
  currency: Currency;
  priceCurrency: PriceCurrency;
  /** Crypto per one unit of the fiat currency, exact. */
  ratio: Ratio;
  /** `ratio` as a decimal string, RATE_SIGNIFICANT_DIGITS significant digits, rounded half up. */
  rate: string;
  /** Where it came from: `chainlink:ethereum:ETH/USD@<round id>[+EUR/USD@<round id>]` or `test:fixed:ETH/USD[+EUR/USD]`. */
  rateSource: string;
  /** When the rate was observed: the oldest round's updatedAt (chainlink), or the moment of the quote (test:fixed). */
  rateAt: Date;
}

/**
 * crypto per fiat unit from the feeds' answers: 1 / (base/USD) for USD, (EUR/USD) / (base/USD) for EUR.
 * base/USD = A / 10^a, EUR/USD = E / 10^e, so crypto per EUR = E × 10^a / (A × 10^e).
 */
export function ratioOf(
  base: Pick<FeedReading, 'answer' | 'decimals'>,
  fiat: Pick<FeedReading, 'answer' | 'decimals'> | null,
): Ratio {
  if (base.answer <= 0n || (fiat && fiat.answer <= 0n)) throw new RangeError('feed answers must be positive');
  if (!fiat) return { numerator: pow10(base.decimals), denominator: base.answer };
  return { numerator: fiat.answer * pow10(base.decimals), denominator: base.answer * pow10(fiat.decimals) };
}

/** The amount in base units: ⌈price × ratio × 10^decimals⌉, one rounding, up. */
export function convertToUnits(priceAmount: string, ratio: Ratio, decimals: number): bigint {
  const price = parseDecimal(priceAmount);
  return ceilDiv(price.units * ratio.numerator * pow10(decimals), ratio.denominator * pow10(price.scale));
}

/** The amount as a decimal string in the currency's units, rounded up to its decimals. */
export function convertPrice(priceAmount: string, quote: Pick<RateQuote, 'currency' | 'ratio'>): string {
  const decimals = CURRENCY_RULES[quote.currency].decimals;
  return formatUnits(convertToUnits(priceAmount, quote.ratio, decimals), decimals);
}

function sourceFor(environment: KeyEnvironment): FeedSource {
  const source = chainlinkSource();
  if (source) return source;
  // Test mode without feeds: the documented fixed rates, named as such. Live never guesses.
  if (environment === 'test') return fixedTestSource;
  throw new AppError('rate_unavailable', notConfiguredMessage(), { headers: { 'Retry-After': '60' } });
}

/** The rate a create in `environment` would lock now, or 503 rate_unavailable (with Retry-After). */
export async function quoteRate(
  environment: KeyEnvironment,
  currency: Currency,
  priceCurrency: PriceCurrency,
  now = new Date(),
): Promise<RateQuote> {
  const source = sourceFor(environment);
  const fiatFeed = PRICE_CURRENCY_FEED[priceCurrency];
  let base: FeedReading;
  let fiat: FeedReading | null;
  try {
    [base, fiat] = await Promise.all([
      source.read(CURRENCY_FEED[currency], now),
      fiatFeed ? source.read(fiatFeed, now) : null,
    ]);
  } catch (error) {
    if (!(error instanceof FeedUnavailable)) throw error;
    throw new AppError('rate_unavailable', `No fresh ${currency}/${priceCurrency} rate: ${error.message}`, {
      headers: { 'Retry-After': String(error.retryAfterSeconds) },
    });
  }
  const ratio = ratioOf(base, fiat);
  const rounds = fiat ? [base, fiat] : [base];
  const named = rounds
    .map((reading) => (source === fixedTestSource ? reading.feed : `${reading.feed}@${reading.roundId}`))
    .join('+');
  return {
    currency,
    priceCurrency,
    ratio,
    rate: formatSignificant(ratio, RATE_SIGNIFICANT_DIGITS),
    rateSource: `${source.name}:${named}`,
    rateAt: new Date(Math.min(...rounds.map((reading) => reading.updatedAt.getTime()))),
  };
}
