import { formatSignificant } from '../../rates/decimal';
import { quoteRate, RATE_SIGNIFICANT_DIGITS } from '../../rates/rates';
import { RateQuery, RateResource } from '../../rates/schemas';
import { defineEndpoint } from '../endpoint';

export const getRateEndpoint = defineEndpoint({
  operationId: 'getRate',
  method: 'GET',
  path: '/v1/rates',
  summary: 'Retrieve the rate a create would lock',
  description:
    "The rate an invoice created now with `price_amount` in `price_currency` and paid in `currency` would lock, in the calling key's environment. Rates are read from Chainlink price feeds and cached for at most 30 s; no fresh rate → 503 `rate_unavailable` with `Retry-After`.",
  tags: ['Rates'],
  scope: 'invoices:read',
  query: RateQuery,
  response: RateResource,
  successStatus: 200,
  errors: ['validation_failed', 'rate_unavailable'],
  handler: async ({ key, query, now }) => {
    const quote = await quoteRate(key.environment, query.currency, query.price_currency, now);
    return {
      object: 'rate' as const,
      environment: key.environment,
      currency: quote.currency,
      price_currency: quote.priceCurrency,
      rate: quote.rate,
      price_per_unit: formatSignificant(
        { numerator: quote.ratio.denominator, denominator: quote.ratio.numerator },
        RATE_SIGNIFICANT_DIGITS,
      ),
      rate_source: quote.rateSource,
      rate_at: quote.rateAt.toISOString(),
    };
  },
});
