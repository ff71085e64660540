/**
 * Exact decimal arithmetic on BigInt for rates (docs/rates.md): a decimal string is an integer and a scale, a
 * ratio is two integers, and the only rounding is the one the caller asks for. No JavaScript number ever holds
 * a money value or a rate.
 */

/** value = units / 10^scale. */
export interface ScaledInteger {
  units: bigint;
  scale: number;
}

/** A positive exact ratio numerator / denominator. */
export interface Ratio {
  numerator: bigint;
  denominator: bigint;
}

const DECIMAL = /^(0|[1-9]\d*)(?:\.(\d+))?$/;

export function pow10(exponent: number): bigint {
  if (!Number.isInteger(exponent) || exponent < 0) throw new RangeError(`10^${exponent} is not an integer power`);
  return 10n ** BigInt(exponent);
}

/** "49.90" → { units: 4990n, scale: 2 }. Only unsigned plain decimals (no sign, exponent or spaces). */
export function parseDecimal(value: string): ScaledInteger {
  const match = DECIMAL.exec(value);
  if (!match) throw new RangeError(`not a plain decimal: ${JSON.stringify(value)}`);
  const fraction = match[2] ?? '';
  return { units: BigInt(match[1]! + fraction), scale: fraction.length };
}

/** units / 10^decimals as a plain decimal string without trailing fractional zeros (1960000n, 8 → "0.0196"). */
export function formatUnits(units: bigint, decimals: number): string {
  if (units < 0n) return `-${formatUnits(-units, decimals)}`;
  if (decimals === 0) return units.toString();
  const digits = units.toString().padStart(decimals + 1, '0');
  const whole = digits.slice(0, -decimals);
  const fraction = digits.slice(-decimals).replace(/0+$/, '');
  return fraction ? `${whole}.${fraction}` : whole;
}

/** ⌈a / b⌉ for a ≥ 0, b > 0. */
export function ceilDiv(a: bigint, b: bigint): bigint {
  if (b <= 0n || a < 0n) throw new RangeError('ceilDiv needs a ≥ 0 and b > 0');
  return (a + b - 1n) / b;
}

/**
 * The ratio rounded half up to `significant` significant digits, as a plain decimal string (trailing zeros
 * trimmed). Used to show a rate; amounts are never computed from the rounded figure.
 */
export function formatSignificant(ratio: Ratio, significant: number): string {
  const { numerator, denominator } = ratio;
  if (numerator <= 0n || denominator <= 0n) throw new RangeError('formatSignificant needs a positive ratio');
  // Find the exponent e with 10^(significant-1) ≤ ratio × 10^e < 10^significant, then round at that scale.
  const integerDigits = (numerator / denominator).toString().length;
  let scale = numerator >= denominator ? significant - integerDigits : significant;
  if (numerator < denominator) {
    // Leading zeros after the point: the first non-zero digit sits at position z + 1.
    let zeros = 0;
    while (numerator * pow10(zeros + 1) < denominator) zeros++;
    scale = significant + zeros;
  }
  if (scale < 0) {
    const unit = pow10(-scale);
    const rounded = (2n * numerator + unit * denominator) / (2n * unit * denominator);
    return (rounded * unit).toString();
  }
  const scaled = numerator * pow10(scale);
  const rounded = (2n * scaled + denominator) / (2n * denominator);
  return formatUnits(rounded, scale);
}
