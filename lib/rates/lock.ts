import { AppError } from '../errors';
import type { Currency } from '../invoices/currencies';
import type { KeyEnvironment } from '../keys/api-key-secret';
import type { PriceCurrency } from './feeds';
import { convertPrice, quoteRate } from './rates';

/** The most integer digits an invoice amount can have (its column is numeric(38, 18)). */
const MAX_AMOUNT_INTEGER_DIGITS = 20;

export interface LockedPrice {
  amount: string;
  currency: PriceCurrency;
  rate: string;
  rateSource: string;
  rateAt: Date;
}

/**
 * An invoice priced in fiat: the rate a create locks now and the amount it gives, computed before anything is
 * written (no rate → 503 rate_unavailable, and no invoice). The rate then never changes for the invoice.
 */
export async function lockPrice(
  environment: KeyEnvironment,
  request: { priceAmount: string; priceCurrency: PriceCurrency; currency: Currency },
  now: Date,
): Promise<{ amount: string; price: LockedPrice }> {
  const quote = await quoteRate(environment, request.currency, request.priceCurrency, now);
  const amount = convertPrice(request.priceAmount, quote);
  if (amount.split('.')[0]!.length > MAX_AMOUNT_INTEGER_DIGITS) {
    throw new AppError(
      'validation_failed',
      `price_amount converts to more than ${MAX_AMOUNT_INTEGER_DIGITS} integer digits of ${request.currency}`,
      {
        errors: [
          {
            path: 'price_amount',
            message: `At ${quote.rate} ${request.currency} per ${request.priceCurrency} this price is too large an amount`,
          },
        ],
      },
    );
  }
  return {
    amount,
    price: {
      amount: request.priceAmount,
      currency: request.priceCurrency,
      rate: quote.rate,
      rateSource: quote.rateSource,
      rateAt: quote.rateAt,
    },
  };
}
