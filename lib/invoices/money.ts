import { CURRENCY_RULES, type Currency } from './currencies';

/**
 * Crypto amounts for people (docs/portal.md, "Amounts"): from the exact decimal string, never a number. At least
 * two decimals ("12.5" → "12.50", "10" → "10.00") and every significant digit the currency's decimals allow
 * ("0.015" ETH stays "0.015"); trailing zeros beyond two are dropped. Nothing is ever rounded: a value with
 * more decimals than its currency has is refused (it would be a bug upstream).
 */
export const MIN_DISPLAY_DECIMALS = 2;

const PLAIN_DECIMAL = /^(-)?(\d+)(?:\.(\d+))?$/;

export function isCurrency(value: string): value is Currency {
  return Object.hasOwn(CURRENCY_RULES, value);
}

/** The amount with its currency's formatting; `group` adds thousands separators (pages, not the CSV). */
export function formatCurrencyAmount(amount: string, currency: string, options: { group?: boolean } = {}): string {
  const match = PLAIN_DECIMAL.exec(amount.trim());
  if (!match) throw new RangeError(`not a plain decimal amount: ${JSON.stringify(amount)}`);
  const [, sign = '', wholeDigits, fractionDigits = ''] = match;
  const decimals = isCurrency(currency) ? CURRENCY_RULES[currency].decimals : 18;
  const significant = fractionDigits.replace(/0+$/, '');
  if (significant.length > decimals) throw new RangeError(`${amount} has more decimals than ${currency} (${decimals})`);
  const fraction = significant.padEnd(Math.min(MIN_DISPLAY_DECIMALS, decimals), '0');
  const whole = wholeDigits!.replace(/^0+(?=\d)/, '');
  const shownWhole = options.group ? whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',') : whole;
  return `${sign}${shownWhole}${fraction ? `.${fraction}` : ''}`;
}

/** "12.50 USDT": the amount and its currency code, as pages show them. */
export function formatMoney(amount: string, currency: string): string {
  return `${formatCurrencyAmount(amount, currency, { group: true })} ${currency}`;
}
