import { z } from 'zod';
import { CURRENCIES, CURRENCY_RULES, NETWORKS, isSupportedPair, supportedPairsText } from './currencies';
import { INVOICE_STATUSES, PAYMENT_EXCEPTIONS } from './state';

/** Zod schemas of the invoice API: the handlers validate with them and the OpenAPI document is built from them. */

export const INVOICE_ID_PATTERN = /^inv_[0-9A-Za-z]{24}$/;
export const AMOUNT_PATTERN = /^(0|[1-9]\d*)(\.\d+)?$/;
const MAX_AMOUNT_INTEGER_DIGITS = 20;

export const ENVIRONMENT_FIELD_HINT =
  'The environment is not chosen in the body: it is the calling key\'s (test_ or live_ prefix). Remove this field.';

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

export const InvoiceId = z.string().regex(INVOICE_ID_PATTERN).describe('Invoice id, `inv_` followed by 24 base62 characters');

const Amount = z
  .string({
    error: (issue) =>
      issue.input === undefined
        ? 'amount is required'
        : typeof issue.input === 'number'
          ? 'Send amount as a decimal string such as "10.50", not a JSON number (numbers lose precision)'
          : 'amount must be a decimal string',
  })
  .regex(AMOUNT_PATTERN, 'amount must be digits with an optional fraction, such as "10.50": no sign, exponent or spaces')
  .refine((value) => value.split('.')[0]!.length <= MAX_AMOUNT_INTEGER_DIGITS, `amount has more than ${MAX_AMOUNT_INTEGER_DIGITS} integer digits`)
  .refine((value) => /[1-9]/.test(value), 'amount must be greater than 0')
  .describe('Decimal string, > 0, at most the currency\'s decimals (USDT/USDC 6, ETH 18, BTC 8)')
  .meta({ example: '49.99' });

const Metadata = z
  .record(
    storableText('metadata keys', 40, 'metadata keys are at most 40 characters').min(1),
    storableText('metadata values', 500, 'metadata values are at most 500 characters'),
    {
      error: 'metadata must be an object of string values',
    },
  )
  .refine((value) => Object.keys(value).length <= 20, 'metadata has at most 20 keys')
  .describe('Up to 20 string keys (≤ 40 chars) with string values (≤ 500 chars)')
  .meta({ example: { customer_id: 'cus_42' } });

export const CreateInvoiceBody = z
  .strictObject({
    amount: Amount,
    currency: z.enum(CURRENCIES, { error: `currency must be one of ${CURRENCIES.join(', ')}` }),
    network: z.enum(NETWORKS, { error: `network must be one of ${NETWORKS.join(', ')}` }),
    description: storableText('description', 500, 'description is at most 500 characters').optional(),
    metadata: Metadata.optional(),
    order_id: storableText('order_id', 128, 'order_id is at most 128 characters').min(1).optional(),
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
    const fraction = body.amount.split('.')[1] ?? '';
    const decimals = CURRENCY_RULES[body.currency].decimals;
    if (fraction.length > decimals) {
      ctx.addIssue({ code: 'custom', path: ['amount'], message: `${body.currency} amounts have at most ${decimals} decimals` });
    }
  })
  .meta({ example: { amount: '49.99', currency: 'USDT', network: 'tron', order_id: 'order_1001' } });

export type CreateInvoiceBody = z.output<typeof CreateInvoiceBody>;

export const ListInvoicesQuery = z.strictObject({
  limit: z.coerce
    .number({ error: 'limit must be an integer from 1 to 100' })
    .int('limit must be an integer from 1 to 100')
    .min(1, 'limit must be an integer from 1 to 100')
    .max(100, 'limit must be an integer from 1 to 100')
    .default(20),
  starting_after: InvoiceId.optional().describe('Cursor: the id of the last invoice of the previous page'),
  status: z.enum(INVOICE_STATUSES).optional(),
});
export type ListInvoicesQuery = z.output<typeof ListInvoicesQuery>;

export const InvoiceIdParams = z.strictObject({ id: z.string() });

const Timestamp = z.string().describe('ISO 8601 UTC timestamp').meta({ example: '2026-11-22T10:00:00.000Z' });

export const PaymentResource = z
  .object({
    id: z.string().meta({ example: 'pay_3kTz9QwErTyUiOpAsDfGhJkL' }),
    tx_hash: z.string(),
    log_index: z.number().int().nullable().describe('The Transfer log\'s index in its block; null for a native (ETH) transfer'),
    network: z.enum(NETWORKS),
    currency: z.enum(CURRENCIES),
    amount: z.string(),
    from: z.string(),
    block_number: z.number().int(),
    confirmations: z.number().int().describe('Counted while pending; once confirmed, the count that confirmed it'),
    status: z.enum(['pending', 'confirmed', 'reverted']),
    detected_at: Timestamp,
    confirmed_at: Timestamp.nullable(),
  })
  .meta({ id: 'Payment' });
export type PaymentResource = z.infer<typeof PaymentResource>;

export const InvoiceResource = z
  .object({
    id: z.string().meta({ example: 'inv_3kTz9QwErTyUiOpAsDfGhJkL' }),
    object: z.literal('invoice'),
    environment: z.enum(['test', 'live']),
    status: z.enum(INVOICE_STATUSES),
    amount: z.string(),
    currency: z.enum(CURRENCIES),
    network: z.enum(NETWORKS),
    pay_address: z.string(),
    pay_amount: z
      .string()
      .describe('The exact amount to send: `amount` plus a suffix unique among open invoices on this network, asset and address (live); `amount` (test)')
      .meta({ example: '49.994213' }),
    payment_uri: z
      .string()
      .describe('URI a wallet opens with address and amount filled in: EIP-681 on EVM networks, BIP-21 on bitcoin')
      .meta({ example: 'ethereum:0xdAC17F958D2ee523a2206206994597C13D831ec7@1/transfer?address=0x…&uint256=49994213' }),
    amount_received: z.string().describe('Sum of confirmed payments (or the simulated payment of a test invoice)'),
    payment_exception: z
      .enum(PAYMENT_EXCEPTIONS)
      .nullable()
      .describe('paid_late: paid after expires_at inside the monitoring window; underpaid / overpaid: attached payments differ from pay_amount'),
    description: z.string().nullable(),
    metadata: z.record(z.string(), z.string()),
    order_id: z.string().nullable(),
    redirect_url: z.string().nullable(),
    hosted_url: z
      .string()
      .nullable()
      .describe('The hosted payment page to send the payer to: `<PUBLIC_URL>/pay/<token>`, a random capability URL (not the invoice id). null only in event snapshots written before hosted pages existed'),
    created_at: Timestamp,
    expires_at: Timestamp,
    paid_at: Timestamp.nullable(),
    cancelled_at: Timestamp.nullable(),
    payment: z
      .object({ tx_hash: z.string(), amount: z.string(), simulated: z.boolean() })
      .nullable()
      .describe('The payment that settled the invoice'),
    payments: z.array(PaymentResource).describe('Every on-chain payment attributed to the invoice, oldest first'),
  })
  .meta({ id: 'Invoice' });
export type InvoiceResource = z.infer<typeof InvoiceResource>;

export const InvoiceList = z
  .object({
    object: z.literal('list'),
    data: z.array(InvoiceResource),
    has_more: z.boolean(),
    next_cursor: z.string().nullable(),
  })
  .meta({ id: 'InvoiceList' });
export type InvoiceList = z.infer<typeof InvoiceList>;
