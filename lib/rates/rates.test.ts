import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatSignificant, formatUnits, parseDecimal } from './decimal';
import { convertPrice, convertToUnits, ratioOf } from './rates';

/** A reference built differently: exact fractions reduced by gcd, price → USD → crypto in two steps. */
function gcd(a: bigint, b: bigint): bigint {
  while (b !== 0n) [a, b] = [b, a % b];
  return a;
}
class Fraction {
  constructor(
    readonly n: bigint,
    readonly d: bigint,
  ) {
    const g = gcd(n, d);
    this.n = n / g;
    this.d = d / g;
  }
  static decimal(text: string): Fraction {
    const [whole, fraction = ''] = text.split('.');
    return new Fraction(BigInt(whole! + fraction), 10n ** BigInt(fraction.length));
  }
  times(other: Fraction) {
    return new Fraction(this.n * other.n, this.d * other.d);
  }
  over(other: Fraction) {
    return new Fraction(this.n * other.d, this.d * other.n);
  }
  ceil(): bigint {
    const q = this.n / this.d;
    return this.n % this.d === 0n ? q : q + 1n;
  }
}

function referenceUnits(
  price: string,
  base: { answer: bigint; decimals: number },
  fiat: { answer: bigint; decimals: number } | null,
  decimals: number,
): bigint {
  const feedValue = (feed: { answer: bigint; decimals: number }) =>
    new Fraction(feed.answer, 10n ** BigInt(feed.decimals));
  const usd = fiat ? Fraction.decimal(price).times(feedValue(fiat)) : Fraction.decimal(price);
  const crypto = usd.over(feedValue(base));
  return crypto.times(new Fraction(10n ** BigInt(decimals), 1n)).ceil();
}

const priceArb = fc
  .tuple(fc.bigInt({ min: 1n, max: 10n ** 12n }), fc.integer({ min: 0, max: 2 }), fc.boolean())
  // Sometimes with a trailing zero ("12.50"), as merchants write prices.
  .map(
    ([units, scale, padded]) =>
      formatUnits(units, scale) + (padded && formatUnits(units, scale).includes('.') && scale < 2 ? '0' : ''),
  );
const feedArb = fc.record({
  answer: fc.bigInt({ min: 1n, max: 10n ** 24n }),
  decimals: fc.integer({ min: 0, max: 18 }),
});

describe('price conversion (exact, BigInt)', () => {
  it('rounds a USD price up to the currency decimals exactly as the fraction reference does, for awkward rates', () => {
    fc.assert(
      fc.property(priceArb, feedArb, fc.constantFrom(6, 8, 18), (price, base, decimals) => {
        const units = convertToUnits(price, ratioOf(base, null), decimals);
        expect(units).toBe(referenceUnits(price, base, null, decimals));
      }),
      { numRuns: 2000 },
    );
  });

  it('converts EUR through EUR/USD with a single rounding, matching the reference', () => {
    fc.assert(
      fc.property(priceArb, feedArb, feedArb, fc.constantFrom(6, 8, 18), (price, base, eur, decimals) => {
        const units = convertToUnits(price, ratioOf(base, eur), decimals);
        expect(units).toBe(referenceUnits(price, base, eur, decimals));
        // The defining property of rounding up: never short of the price, never a whole base unit over.
        const exact = new Fraction(parseDecimal(price).units, 10n ** BigInt(parseDecimal(price).scale))
          .times(new Fraction(eur.answer * 10n ** BigInt(base.decimals), base.answer * 10n ** BigInt(eur.decimals)))
          .times(new Fraction(10n ** BigInt(decimals), 1n));
        expect(units * exact.d >= exact.n).toBe(true);
        expect((units - 1n) * exact.d < exact.n).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  it('gives the documented figures', () => {
    // $49.00 at ETH/USD 2500 (8 decimals) = 0.0196 ETH exactly.
    expect(
      convertPrice('49.00', { currency: 'ETH', ratio: ratioOf({ answer: 250_000_000_000n, decimals: 8 }, null) }),
    ).toBe('0.0196');
    // $49.00 at ETH/USD 2500.12: 0.019599059245156232…, rounded up at the 18th decimal.
    expect(
      convertPrice('49.00', { currency: 'ETH', ratio: ratioOf({ answer: 250_012_000_000n, decimals: 8 }, null) }),
    ).toBe('0.019599059245156233');
    // €10 at EUR/USD 1.08 and BTC/USD 97,123.45678901: 0.00011119… BTC, up at 8 decimals.
    const eur = { answer: 108_000_000n, decimals: 8 };
    expect(
      convertPrice('10', { currency: 'BTC', ratio: ratioOf({ answer: 9_712_345_678_901n, decimals: 8 }, eur) }),
    ).toBe('0.0001112');
    // A stablecoin a hair above $1 costs a hair less than the price, never more than a base unit off.
    expect(
      convertPrice('49.99', { currency: 'USDT', ratio: ratioOf({ answer: 100_010_000n, decimals: 8 }, null) }),
    ).toBe('49.985002');
  });

  it('formats a rate to 18 significant digits, rounded half up', () => {
    expect(formatSignificant({ numerator: 1n, denominator: 3n }, 18)).toBe('0.333333333333333333');
    expect(formatSignificant({ numerator: 2n, denominator: 3n }, 18)).toBe('0.666666666666666667');
    expect(formatSignificant({ numerator: 10n ** 8n, denominator: 250_012_000_000n }, 18)).toBe(
      '0.000399980800921555765',
    );
    expect(formatSignificant({ numerator: 1n, denominator: 4n }, 18)).toBe('0.25');
    expect(formatSignificant({ numerator: 123_456_789n, denominator: 1n }, 3)).toBe('123000000');
    expect(formatSignificant({ numerator: 9_999n, denominator: 10_000n }, 2)).toBe('1');
  });

  it('never touches floating point: parses only plain decimals', () => {
    expect(() => parseDecimal('1e3')).toThrow();
    expect(() => parseDecimal('-1')).toThrow();
    expect(parseDecimal('0.10')).toEqual({ units: 10n, scale: 2 });
  });
});
