import { z } from 'zod';
import { CURRENCIES } from '../invoices/currencies';
import { AMOUNT_PATTERN } from '../invoices/schemas';
import { PRICE_CURRENCIES } from './feeds';

/** GET /v1/rates: the rate a create with price_amount would lock now (docs/rates.md). */
export const RateQuery = z.strictObject({
  currency: z
    .enum(CURRENCIES, { error: `currency must be one of ${CURRENCIES.join(', ')}` })
    .describe('The crypto currency the invoice would be paid in'),
  price_currency: z
    .enum(PRICE_CURRENCIES, { error: `price_currency must be one of ${PRICE_CURRENCIES.join(', ')}` })
    .describe('The currency the invoice would be priced in'),
});
export type RateQuery = z.output<typeof RateQuery>;

const Decimal = z.string().regex(AMOUNT_PATTERN);

export const RateResource = z
  .object({
    object: z.literal('rate'),
    environment: z
      .enum(['test', 'live'])
      .describe("The calling key's: test invoices may use the documented fixed rates"),
    currency: z.enum(CURRENCIES),
    price_currency: z.enum(PRICE_CURRENCIES),
    rate: Decimal.describe(
      'Units of currency per one unit of price_currency (18 significant digits), as a create would lock it now',
    ),
    price_per_unit: Decimal.describe('price_currency per one unit of currency (18 significant digits), for display'),
    rate_source: z
      .string()
      .describe('chainlink:<network>:<feed>@<round id>[+EUR/USD@<round id>], or test:fixed:<feed>[+EUR/USD]'),
    rate_at: z.iso.datetime().describe("When the rate was observed: the oldest feed round's update time"),
  })
  .meta({
    id: 'Rate',
    examples: [
      {
        object: 'rate',
        environment: 'live',
        currency: 'ETH',
        price_currency: 'USD',
        rate: '0.000399980800921555765',
        price_per_unit: '2500.12',
        rate_source: 'chainlink:ethereum:ETH/USD@110680464442257320247',
        rate_at: '2026-11-22T09:59:11.000Z',
      },
    ],
  });
export type RateResource = z.infer<typeof RateResource>;
