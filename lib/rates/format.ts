import type { PriceCurrency } from './feeds';

const SYMBOLS: Record<PriceCurrency, string> = { USD: '$', EUR: '€' };

/**
 * A fiat price for display, from its decimal string (never a number): "1234.50", "USD" → "$1,234.50". The
 * digits are the stored ones, grouped by thousands; nothing is rounded.
 */
export function formatFiat(amount: string, currency: PriceCurrency): string {
  const [whole, fraction] = amount.split('.');
  const grouped = whole!.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${SYMBOLS[currency]}${grouped}${fraction !== undefined ? `.${fraction}` : ''}`;
}
