import { randomBytes, randomInt } from 'node:crypto';
import { db } from '../db';
import type { IdempotencyClaim } from '../idempotency/record';
import { AppError } from '../errors';
import { newId } from '../ids';
import type { Tenant } from '../tenant';
import { runTenantRead } from '../tenant-read';
import { testPayAddress } from '../wallets/address';
import { isEvmNetwork, isWatched, rpcSettingName } from '../chain/networks';
import { NETWORK_FAMILY, type Currency, type Network } from './currencies';
import { monitoringWindowEnd, SUFFIX_STEP, SUFFIXES } from './pay-amount';
import type { CreateInvoiceBody, ListInvoicesQuery } from './schemas';
import { insertBitcoinInvoice } from './bitcoin-invoice';
import { conflictMessage, effectiveStatus, TRANSITIONS, type Transition } from './state';
import {
  insertLiveInvoice,
  insertTestInvoice,
  selectInvoice,
  invoicePageRead,
  updateInvoiceWithEvent,
  type InvoicePage,
  type NewInvoice,
  type PageQuery,
  type TransitionColumn,
} from './queries';
import { toInvoiceResource, type InvoiceRecord } from './serialize';
import { lockPrice } from '../rates/lock';

const NOT_FOUND_MESSAGE = 'No invoice with this id exists in this workspace and environment';

/** `claim`: the request's Idempotency-Key, stored with the invoice by the same statement (lib/idempotency/record.ts). */
export async function createInvoice(
  tenant: Tenant,
  body: CreateInvoiceBody,
  now = new Date(),
  claim: IdempotencyClaim | null = null,
) {
  const network = body.network;
  if (tenant.environment === 'live' && !isWatched(network)) {
    const reason =
      isEvmNetwork(network) || network === 'tron' || network === 'bitcoin'
        ? `set ${rpcSettingName(network)} to an RPC endpoint of ${network} to turn it on`
        : `${network} is not watched yet (live settlement covers ethereum, polygon, base, tron and bitcoin)`;
    throw new AppError('network_not_watched', `This deployment does not watch ${network}: ${reason}`);
  }
  // Priced in fiat: the rate is locked and the amount computed before the write (no rate → 503, nothing written).
  const { amount, price } =
    body.price_amount !== undefined && body.price_currency !== undefined
      ? await lockPrice(
          tenant.environment,
          { priceAmount: body.price_amount, priceCurrency: body.price_currency, currency: body.currency },
          now,
        )
      : { amount: body.amount as string, price: null };
  const invoice: NewInvoice = {
    id: newId('invoice'),
    amount,
    currency: body.currency,
    network,
    description: body.description ?? null,
    metadata: body.metadata ?? {},
    orderId: body.order_id ?? null,
    redirectUrl: body.redirect_url ?? null,
    createdAt: now,
    expiresAt: new Date(now.getTime() + body.expires_in * 1000),
    // Test invoices never need a wallet and never show one; live ones are only ever paid to the workspace's own.
    testAddress: tenant.environment === 'test' ? testPayAddress(network) : null,
    price,
  };
  let outcome =
    tenant.environment === 'test'
      ? await insertTestInvoice(tenant, invoice, claim)
      : network === 'bitcoin'
        ? await insertBitcoinInvoice(tenant, invoice, claim)
        : await insertLive(tenant, invoice, claim);
  // A concurrent create may have claimed the amount this one chose: rare, and a new random start resolves it.
  for (let attempt = 1; outcome.kind === 'no_pay_amount' && attempt < PAY_AMOUNT_ATTEMPTS; attempt++) {
    outcome = await insertLive(tenant, invoice, claim);
  }
  switch (outcome.kind) {
    case 'created':
      return toInvoiceResource(outcome.record, now);
    case 'no_wallet':
      throw new AppError(
        'wallet_not_configured',
        `Live invoices on ${network} need a ${network} wallet: add one in the portal's Wallets page`,
      );
    case 'no_pay_amount':
      throw new AppError(
        'pay_amounts_exhausted',
        `Every pay amount near ${amount} ${body.currency} is held by another open invoice on this ${network} wallet: use another amount or wallet`,
      );
  }
}

const PAY_AMOUNT_ATTEMPTS = 3;

function insertLive(tenant: Tenant, invoice: NewInvoice, claim: IdempotencyClaim | null) {
  const currency = invoice.currency as Currency;
  const rule = {
    step: SUFFIX_STEP[currency],
    suffixes: SUFFIXES,
    start: randomInt(SUFFIXES),
    reservedUntil: monitoringWindowEnd(invoice.expiresAt),
    lowerCaseAddress: NETWORK_FAMILY[invoice.network as Network] === 'evm',
  };
  return insertLiveInvoice(tenant, invoice, rule, claim);
}

export async function getInvoice(tenant: Tenant, id: string, now = new Date()) {
  return presentInvoice(await selectInvoice(tenant, id), now);
}

/** The answer to a read by id: the invoice as of `now`, or 404 when the tenant has none with that id. */
export function presentInvoice(record: InvoiceRecord | null, now: Date) {
  if (!record) throw new AppError('invoice_not_found', NOT_FOUND_MESSAGE);
  return toInvoiceResource(record, now);
}

/** The page query of a list request. */
export function pageQuery(query: ListInvoicesQuery, now: Date): PageQuery {
  // One row more than asked: it tells whether there is a next page.
  return { status: query.status ?? 'any', cursor: query.starting_after ?? null, take: query.limit + 1, now };
}

/** Newest first, keyset-paginated on the monotonic `seq` column so deep pages cost the same as the first. */
export async function listInvoices(tenant: Tenant, query: ListInvoicesQuery, now = new Date()) {
  return presentInvoicePage(await runTenantRead(tenant, invoicePageRead(pageQuery(query, now))), query, now);
}

/** The answer to a page read (pageQuery asked for one row more than the limit: it tells whether there is more). */
export function presentInvoicePage({ rows, cursorFound }: InvoicePage, query: ListInvoicesQuery, now: Date) {
  if (!cursorFound) {
    throw new AppError(
      'validation_failed',
      'starting_after does not name an invoice of this workspace and environment',
      {
        errors: [
          { path: 'starting_after', message: 'No invoice with this id exists in this workspace and environment' },
        ],
      },
    );
  }
  const page = rows.slice(0, query.limit);
  const hasMore = rows.length > query.limit;
  return {
    object: 'list' as const,
    data: page.map((row) => toInvoiceResource(row, now)),
    has_more: hasMore,
    next_cursor: hasMore ? (page.at(-1)?.id ?? null) : null,
  };
}

/**
 * The portal's search: the invoices of this tenant whose id or order_id is exactly `reference`, newest first
 * (an id names one invoice; an order_id may be shared by several). Served by the (workspace, environment,
 * order_id) index.
 */
export async function findInvoicesByReference(tenant: Tenant, reference: string, now = new Date(), limit = 50) {
  const rows = await db().invoice.findMany({
    where: { ...tenant, OR: [{ id: reference }, { orderId: reference }] },
    orderBy: { seq: 'desc' },
    take: limit,
    include: { payments: { orderBy: [{ detectedAt: 'asc' }, { id: 'asc' }] } },
  });
  return rows.map((row) => toInvoiceResource(row, now));
}

/**
 * Applies a transition as one compare-and-set statement that also records its event: it only matches a
 * pending, unexpired invoice of this tenant, so of two concurrent transitions exactly one succeeds (and only
 * it has an event). On no match we read the invoice to answer 404 (not ours) or 409 (not in a state that
 * allows it).
 */
async function transition(
  tenant: Tenant,
  id: string,
  name: Transition,
  set: Partial<Record<TransitionColumn, unknown>>,
  now: Date,
  claim: IdempotencyClaim | null,
) {
  const rule = TRANSITIONS[name];
  const row = await updateInvoiceWithEvent(tenant, id, { transition: name, set, now }, claim);
  if (row) return toInvoiceResource(row, now);
  const current = await selectInvoice(tenant, id);
  if (!current) throw new AppError('invoice_not_found', NOT_FOUND_MESSAGE);
  throw new AppError(rule.conflict, conflictMessage(name, effectiveStatus(current.status, current.expiresAt, now)));
}

export function cancelInvoice(tenant: Tenant, id: string, now = new Date(), claim: IdempotencyClaim | null = null) {
  return transition(tenant, id, 'cancel', { cancelled_at: now }, now, claim);
}

/** Marks a test invoice paid with a simulated payment. Live invoices are paid on-chain only. */
export function simulateInvoicePayment(
  tenant: Tenant,
  id: string,
  now = new Date(),
  claim: IdempotencyClaim | null = null,
) {
  if (tenant.environment !== 'test') {
    throw new AppError('test_mode_only', 'Payments can only be simulated with a test_ key, on test invoices');
  }
  // The simulated payment is not an on-chain transfer: it appears in `payment` and amount_received (see
  // toInvoiceResource), never in `payments`.
  const set = { paid_at: now, payment_tx_hash: simulatedTxHash(), payment_simulated: true };
  return transition(tenant, id, 'pay', set, now, claim);
}

function simulatedTxHash(): string {
  return `0x${randomBytes(32).toString('hex')}`;
}
