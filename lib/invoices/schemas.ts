import { z } from 'zod';
import { withDocumentedRule } from '../documented-rule';
import { CURRENCIES, CURRENCY_RULES, NETWORKS, isSupportedPair, supportedPairsText } from './currencies';
import { INVOICE_STATUSES, PAYMENT_EXCEPTIONS } from './state';
import { PRICE_CURRENCIES, PRICE_DECIMALS } from '../rates/feeds';

/** Zod schemas of the invoice API: the handlers validate with them and the OpenAPI document is built from them. */

export const INVOICE_ID_PATTERN = /^inv_[0-9A-Za-z]{24}$/;
export const AMOUNT_PATTERN = /^(0|[1-9]\d*)(\.\d+)?$/;
const MAX_AMOUNT_INTEGER_DIGITS = 20;
const METADATA_MAX_KEYS = 20;
const MAX_DECIMALS = Math.max(...CURRENCIES.map((currency) => CURRENCY_RULES[currency].decimals));
/** The longest amount any currency accepts: every integer digit, the point, every decimal. */
const AMOUNT_MAX_LENGTH = MAX_AMOUNT_INTEGER_DIGITS + 1 + MAX_DECIMALS;

export const ENVIRONMENT_FIELD_HINT =
  "The environment is not chosen in the body: it is the calling key's (test_ or live_ prefix). Remove this field.";

/**
 * Free text is stored in PostgreSQL (text and jsonb), which refuses the NUL character and cannot hold an
 * unpaired UTF-16 surrogate (it would silently become U+FFFD). Refuse both up front with a 400.
 */
const UNSTORABLE_TEXT = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
function storableText(field: string, max: number, message: string) {
  return z
    .string()
    .max(max, message)
    .refine((value) => !UNSTORABLE_TEXT.test(value), `${field} must not contain NUL characters or unpaired surrogates`);
}

export const InvoiceId = z
  .string()
  .max(28)
  .regex(INVOICE_ID_PATTERN)
  .describe('Invoice id, `inv_` followed by 24 base62 characters');

const Amount = z
  .string({
    error: (issue) =>
      issue.input === undefined
        ? 'amount is required'
        : typeof issue.input === 'number'
          ? 'Send amount as a decimal string such as "10.50", not a JSON number (numbers lose precision)'
          : 'amount must be a decimal string',
  })
  .max(AMOUNT_MAX_LENGTH, `amount is at most ${AMOUNT_MAX_LENGTH} characters`)
  .regex(
    AMOUNT_PATTERN,
    'amount must be digits with an optional fraction, such as "10.50": no sign, exponent or spaces',
  )
  .refine(
    (value) => value.split('.')[0]!.length <= MAX_AMOUNT_INTEGER_DIGITS,
    `amount has more than ${MAX_AMOUNT_INTEGER_DIGITS} integer digits`,
  )
  .refine((value) => /[1-9]/.test(value), 'amount must be greater than 0')
  .describe("Decimal string, > 0, at most the currency's decimals (USDT/USDC 6, ETH 18, BTC 8)")
  .meta({ example: '49.99' });

const Metadata = z
  .record(
    storableText('metadata keys', 40, 'metadata keys are at most 40 characters').min(1),
    storableText('metadata values', 500, 'metadata values are at most 500 characters'),
    {
      error: 'metadata must be an object of string values',
    },
  )
  .refine((value) => Object.keys(value).length <= METADATA_MAX_KEYS, `metadata has at most ${METADATA_MAX_KEYS} keys`)
  .describe(`Up to ${METADATA_MAX_KEYS} string keys (≤ 40 chars) with string values (≤ 500 chars)`)
  .meta({ maxProperties: METADATA_MAX_KEYS, example: { customer_id: 'cus_42' } });

const Description = storableText('description', 500, 'description is at most 500 characters');
const OrderId = storableText('order_id', 128, 'order_id is at most 128 characters').min(1);

/**
 * The currency × network pairs as a type: one variant per currency, discriminated by `currency`, built from
 * CURRENCY_RULES. Documentation of the `isSupportedPair` refinement below (which keeps validating, with its
 * message); the OpenAPI document states it so that generated client types refuse a BTC-on-tron invoice.
 */
export const CurrencyNetworkPair = z
  .discriminatedUnion(
    'currency',
    CURRENCIES.map((currency) =>
      z.object({ currency: z.literal(currency), network: z.enum(CURRENCY_RULES[currency].networks) }).meta({
        id: `${currency}Pair`,
        description: `${currency} is paid on ${CURRENCY_RULES[currency].networks.join(', ')}`,
        // A constraint on two fields of a larger object: say nothing about its other fields (no index signature either).
        additionalProperties: undefined,
      }),
    ) as unknown as [z.ZodObject, ...z.ZodObject[]], // one variant per currency; the tuple type is what discriminatedUnion asks for
  )
  .meta({
    id: 'CurrencyNetworkPair',
    // No OpenAPI `discriminator` keyword: openapi-typescript reads a discriminator reached through `allOf` as
    // inheritance and types `currency` as the parent's name. The variants' `const` currencies discriminate anyway.
    description: `Supported pairs: ${supportedPairsText()}`,
  });

/** Prices in fiat: at most this many integer digits (a trillion and more), so the converted amount always fits. */
const MAX_PRICE_INTEGER_DIGITS = 13;
const PRICE_MAX_DECIMALS = Math.max(...PRICE_CURRENCIES.map((currency) => PRICE_DECIMALS[currency]));

const PriceAmount = z
  .string({
    error: (issue) =>
      typeof issue.input === 'number'
        ? 'Send price_amount as a decimal string such as "49.00", not a JSON number (numbers lose precision)'
        : 'price_amount must be a decimal string',
  })
  .max(
    MAX_PRICE_INTEGER_DIGITS + 1 + PRICE_MAX_DECIMALS,
    `price_amount is at most ${MAX_PRICE_INTEGER_DIGITS + 1 + PRICE_MAX_DECIMALS} characters`,
  )
  .regex(
    AMOUNT_PATTERN,
    'price_amount must be digits with an optional fraction, such as "49.00": no sign, exponent or spaces',
  )
  .refine(
    (value) => value.split('.')[0]!.length <= MAX_PRICE_INTEGER_DIGITS,
    `price_amount has more than ${MAX_PRICE_INTEGER_DIGITS} integer digits`,
  )
  .refine((value) => /[1-9]/.test(value), 'price_amount must be greater than 0')
  .describe(
    `The price in price_currency: a decimal string, > 0, at most ${PRICE_MAX_DECIMALS} decimals. Converted to amount at the rate locked at creation (rounded up)`,
  )
  .meta({ example: '49.00' });

const PriceCurrency = z
  .enum(PRICE_CURRENCIES, { error: `price_currency must be one of ${PRICE_CURRENCIES.join(', ')}` })
  .describe('The currency of price_amount');

/**
 * Priced in crypto (`amount`) or in fiat (`price_amount` + `price_currency`), never both: validated by the
 * refinement below (with its messages), stated for the OpenAPI document as this `oneOf`.
 */
export const AmountOrPrice = z
  .xor([
    z
      .object({ amount: Amount })
      .meta({ id: 'PricedInCrypto', description: '`amount` in `currency`', additionalProperties: undefined }),
    z.object({ price_amount: PriceAmount, price_currency: PriceCurrency }).meta({
      id: 'PricedInFiat',
      description: '`price_amount` in `price_currency`, converted to `amount` at a locked rate',
      additionalProperties: undefined,
    }),
  ])
  .meta({
    id: 'AmountOrPrice',
    description: 'Either `amount`, or `price_amount` with `price_currency`: exactly one of the two',
  });

export const CreateInvoiceBody = withDocumentedRule(
  z
    .strictObject({
      amount: Amount.optional(),
      price_amount: PriceAmount.optional(),
      price_currency: PriceCurrency.optional(),
      currency: z.enum(CURRENCIES, { error: `currency must be one of ${CURRENCIES.join(', ')}` }),
      network: z.enum(NETWORKS, { error: `network must be one of ${NETWORKS.join(', ')}` }),
      description: Description.optional(),
      metadata: Metadata.optional(),
      order_id: OrderId.optional(),
      redirect_url: z
        .url({ protocol: /^https$/, error: 'redirect_url must be an https URL' })
        .max(2000, 'redirect_url is at most 2000 characters')
        .optional()
        .describe('https URL (≤ 2000 chars) the hosted payment page sends the payer back to once paid'),
      expires_in: z
        .number({ error: 'expires_in must be an integer number of seconds' })
        .int('expires_in must be an integer number of seconds')
        .min(300, 'expires_in is at least 300 seconds')
        .max(604800, 'expires_in is at most 604800 seconds (7 days)')
        .default(3600)
        .describe('Seconds until the invoice expires (300–604800, default 3600)'),
    })
    .superRefine((body, ctx) => {
      if (!isSupportedPair(body.currency, body.network)) {
        ctx.addIssue({
          code: 'custom',
          path: ['network'],
          message: `${body.currency} is not supported on ${body.network}. Supported: ${supportedPairsText()}`,
        });
      }
      if (body.amount !== undefined && (body.price_amount !== undefined || body.price_currency !== undefined)) {
        const path = body.price_amount !== undefined ? 'price_amount' : 'price_currency';
        ctx.addIssue({
          code: 'custom',
          path: [path],
          message: 'Send either amount, or price_amount with price_currency: not both',
        });
      } else if (body.price_amount !== undefined && body.price_currency === undefined) {
        ctx.addIssue({
          code: 'custom',
          path: ['price_currency'],
          message: `price_currency is required with price_amount: one of ${PRICE_CURRENCIES.join(', ')}`,
        });
      } else if (body.price_currency !== undefined && body.price_amount === undefined) {
        ctx.addIssue({
          code: 'custom',
          path: ['price_amount'],
          message: 'price_amount is required with price_currency',
        });
      } else if (body.amount === undefined && body.price_amount === undefined) {
        ctx.addIssue({
          code: 'custom',
          path: ['amount'],
          message: 'amount is required (or price_amount with price_currency, to price in fiat)',
        });
      }
      if (body.amount !== undefined) {
        const fraction = body.amount.split('.')[1] ?? '';
        const decimals = CURRENCY_RULES[body.currency].decimals;
        if (fraction.length > decimals) {
          ctx.addIssue({
            code: 'custom',
            path: ['amount'],
            message: `${body.currency} amounts have at most ${decimals} decimals`,
          });
        }
      }
      if (body.price_amount !== undefined && body.price_currency !== undefined) {
        const fraction = body.price_amount.split('.')[1] ?? '';
        const decimals = PRICE_DECIMALS[body.price_currency];
        if (fraction.length > decimals) {
          ctx.addIssue({
            code: 'custom',
            path: ['price_amount'],
            message: `${body.price_currency} prices have at most ${decimals} decimals`,
          });
        }
      }
    })
    .meta({
      id: 'CreateInvoiceRequest',
      examples: [
        { amount: '49.99', currency: 'USDT', network: 'tron', order_id: 'order_1001' },
        {
          amount: '0.0015',
          currency: 'BTC',
          network: 'bitcoin',
          description: 'Pro plan, 1 month',
          metadata: { customer_id: 'cus_42' },
          expires_in: 1800,
        },
        { price_amount: '49.00', price_currency: 'USD', currency: 'ETH', network: 'ethereum', order_id: 'order_1002' },
      ],
    }),
  CurrencyNetworkPair,
  AmountOrPrice,
);

export type CreateInvoiceBody = z.output<typeof CreateInvoiceBody>;

const LIST_LIMIT_MAX = 100;

export const ListInvoicesQuery = z.strictObject({
  limit: z.coerce
    .number({ error: `limit must be an integer from 1 to ${LIST_LIMIT_MAX}` })
    .int(`limit must be an integer from 1 to ${LIST_LIMIT_MAX}`)
    .min(1, `limit must be an integer from 1 to ${LIST_LIMIT_MAX}`)
    .max(LIST_LIMIT_MAX, `limit must be an integer from 1 to ${LIST_LIMIT_MAX}`)
    .default(20),
  starting_after: InvoiceId.optional().describe('Cursor: the id of the last invoice of the previous page'),
  status: z.enum(INVOICE_STATUSES).optional(),
});
export type ListInvoicesQuery = z.output<typeof ListInvoicesQuery>;

/**
 * The id is checked against INVOICE_ID_PATTERN by the endpoints (lib/api/endpoints/invoices.ts): a malformed id
 * names no invoice and is answered 404 invoice_not_found, without a read. The document states the same pattern.
 */
export const InvoiceIdParams = z.strictObject({
  id: z.string().meta({
    pattern: INVOICE_ID_PATTERN.source,
    maxLength: 28,
    minLength: 28,
    description: 'Invoice id, `inv_` followed by 24 base62 characters',
  }),
});

const Timestamp = z.iso.datetime().describe('ISO 8601 UTC timestamp').meta({ example: '2026-11-22T10:00:00.000Z' });
const ResponseAmount = z
  .string()
  .max(AMOUNT_MAX_LENGTH)
  .regex(AMOUNT_PATTERN)
  .describe("Decimal string in the currency's units, without trailing fractional zeros");

export const PaymentResource = z
  .object({
    id: z.string().meta({ example: 'pay_3kTz9QwErTyUiOpAsDfGhJkL' }),
    tx_hash: z.string(),
    log_index: z
      .number()
      .int()
      .nullable()
      .describe(
        "The Transfer log's index in its block; Bitcoin: the output's index in its transaction; null for a native (ETH) transfer",
      ),
    network: z.enum(NETWORKS),
    currency: z.enum(CURRENCIES),
    amount: ResponseAmount,
    from: z.string(),
    block_number: z
      .number()
      .int()
      .nullable()
      .describe('null while the transaction is only in the mempool (Bitcoin, 0 confirmations)'),
    confirmations: z.number().int().describe('Counted while pending; once confirmed, the count that confirmed it'),
    status: z.enum(['pending', 'confirmed', 'reverted']),
    detected_at: Timestamp,
    confirmed_at: Timestamp.nullable(),
  })
  .meta({ id: 'Payment' });
export type PaymentResource = z.infer<typeof PaymentResource>;

/** A complete invoice as the API returns it: the example of `Invoice`, `InvoiceList` and `Event`. */
export const INVOICE_EXAMPLE = {
  id: 'inv_3kTz9QwErTyUiOpAsDfGhJkL',
  object: 'invoice',
  environment: 'test',
  status: 'paid',
  amount: '49.99',
  currency: 'USDT',
  network: 'tron',
  pay_address: 'TJRabPrwbZy45sbavfcjinPJC18kjpRTv8',
  description: 'Pro plan, 1 month',
  metadata: { customer_id: 'cus_42' },
  order_id: 'order_1001',
  created_at: '2026-11-22T10:00:00.000Z',
  expires_at: '2026-11-22T11:00:00.000Z',
  paid_at: '2026-11-22T10:07:12.000Z',
  cancelled_at: null,
  payment: { tx_hash: 'sim_5f2b9c0e7d1a4b3c8e6f0a9d2c4b7e1f', amount: '49.99', simulated: true },
  pay_amount: '49.99',
  payment_uri: 'tron:TJRabPrwbZy45sbavfcjinPJC18kjpRTv8?token=TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t&amount=49.99',
  amount_received: '49.99',
  payment_exception: null,
  redirect_url: null,
  hosted_url: 'https://payments.example.com/pay/9b1f0c3e5d7a4b2c8e6f0a1d3c5b7e9f2a4c6e8b0d1f3a5c7e9b2d4f6a8c0e1f',
  payments: [],
  price_amount: null,
  price_currency: null,
  rate: null,
  rate_source: null,
  rate_at: null,
};

export const InvoiceResource = withDocumentedRule(
  z
    .object({
      id: InvoiceId.meta({ example: 'inv_3kTz9QwErTyUiOpAsDfGhJkL' }),
      object: z.literal('invoice'),
      environment: z.enum(['test', 'live']),
      status: z.enum(INVOICE_STATUSES),
      amount: ResponseAmount,
      currency: z.enum(CURRENCIES),
      network: z.enum(NETWORKS),
      pay_address: z.string(),
      pay_amount: z
        .string()
        .describe(
          'The exact amount to send: `amount` plus a suffix unique among open invoices on this network, asset and address (live); `amount` (test)',
        )
        .meta({ example: '49.994213' }),
      payment_uri: z
        .string()
        .describe('URI a wallet opens with address and amount filled in: EIP-681 on EVM networks, BIP-21 on bitcoin')
        .meta({
          example: 'ethereum:0xdAC17F958D2ee523a2206206994597C13D831ec7@1/transfer?address=0x…&uint256=49994213',
        }),
      amount_received: ResponseAmount.describe(
        'Sum of confirmed payments (or the simulated payment of a test invoice)',
      ),
      payment_exception: z
        .enum(PAYMENT_EXCEPTIONS)
        .nullable()
        .describe(
          'paid_late: paid after expires_at inside the monitoring window; underpaid / overpaid: attached payments differ from pay_amount; underpaid_within_tolerance: paid, short by at most the workspace payment tolerance (0 today: not set yet)',
        ),
      description: Description.nullable(),
      metadata: Metadata,
      order_id: OrderId.nullable(),
      redirect_url: z.string().nullable(),
      hosted_url: z
        .string()
        .nullable()
        .describe(
          'The hosted payment page to send the payer to: `<PUBLIC_URL>/pay/<token>`, a random capability URL (not the invoice id). null only in event snapshots written before hosted pages existed',
        ),
      created_at: Timestamp,
      expires_at: Timestamp,
      paid_at: Timestamp.nullable(),
      cancelled_at: Timestamp.nullable(),
      payment: z
        .object({ tx_hash: z.string(), amount: ResponseAmount, simulated: z.boolean() })
        .nullable()
        .describe('The payment that settled the invoice'),
      payments: z
        .array(PaymentResource)
        .max(1000)
        .describe('Every on-chain payment attributed to the invoice, oldest first'),
      price_amount: ResponseAmount.nullable()
        .describe('The price in price_currency, with its minor units ("49.00"); null when created with amount')
        .meta({ example: '49.00' }),
      price_currency: z.enum(PRICE_CURRENCIES).nullable().describe('USD or EUR; null when created with amount'),
      rate: z
        .string()
        .regex(AMOUNT_PATTERN)
        .nullable()
        .describe(
          "The locked rate: units of currency per one unit of price_currency, 18 significant digits. amount = price_amount × the exact feed ratio, rounded up to the currency's decimals",
        )
        .meta({ example: '0.000399980800921555765' }),
      rate_source: z
        .string()
        .nullable()
        .describe(
          'Where the rate came from: chainlink:<network>:<feed>@<round id>[+EUR/USD@<round id>], or test:fixed:<feed>[+EUR/USD] (test invoices without configured feeds)',
        )
        .meta({ example: 'chainlink:ethereum:ETH/USD@110680464442257320247' }),
      rate_at: Timestamp.nullable().describe(
        "When the rate was observed: the oldest feed round's update time (or the creation time for test:fixed)",
      ),
    })
    .meta({ id: 'Invoice', examples: [INVOICE_EXAMPLE] }),
  CurrencyNetworkPair,
);
export type InvoiceResource = z.infer<typeof InvoiceResource>;

export const InvoiceList = z
  .object({
    object: z.literal('list'),
    data: z.array(InvoiceResource).max(LIST_LIMIT_MAX),
    has_more: z.boolean(),
    next_cursor: InvoiceId.nullable().describe('Pass as `starting_after` to read the next page; null on the last page'),
  })
  .meta({
    id: 'InvoiceList',
    examples: [{ object: 'list', data: [INVOICE_EXAMPLE], has_more: true, next_cursor: INVOICE_EXAMPLE.id }],
  });
export type InvoiceList = z.infer<typeof InvoiceList>;
