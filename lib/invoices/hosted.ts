import { meteringSql, runStatement } from '../db';
import { confirmations, explorerTxUrl, isEvmNetwork } from '../chain/networks';
import { bitcoinConfirmations } from '../chain/bitcoin/chain';
import { fromBaseUnits, paymentUri, toBaseUnits } from '../chain/payment-uri';
import { tronConfirmations } from '../chain/tron/settings';
import { CURRENCY_RULES, type Currency, type Network } from './currencies';
import { PAY_TOKEN_PATTERN } from './hosted-url';
import { simulateInvoicePayment } from './invoices';
import { fromSnapshot, INVOICE_SNAPSHOT_SQL, type InvoiceSnapshot } from './snapshot';
import { toInvoiceResource } from './serialize';
import type { InvoiceStatus } from './state';
import type { PriceCurrency } from '../rates/feeds';

/**
 * The hosted payment page's reads (docs/hosted-page.md). The token is the only key: whoever holds the link sees this one
 * invoice's payment fields and the workspace's name, nothing else of the workspace (no metadata, keys or other
 * invoices; the invoice id and order id only on the receipt, once paid) — the view types below carry only what
 * the page shows.
 */

export const NETWORK_NAMES: Record<Network, string> = {
  ethereum: 'Ethereum',
  polygon: 'Polygon PoS',
  base: 'Base',
  tron: 'Tron (TRC-20)',
  bitcoin: 'Bitcoin',
};

/** What the live status endpoint answers: status fields only. */
export interface HostedStatus {
  status: InvoiceStatus;
  /** A transfer is on chain and counting confirmations (status processing). */
  confirmations: number | null;
  confirmations_required: number | null;
  expires_at: string;
  /** Only once paid: where "Return to merchant" goes. */
  redirect_url: string | null;
  currency: string;
  /** Confirmed so far (decimal string). */
  amount_received: string;
  /** After a partial payment (Bitcoin payments add up): what is still due; null otherwise. */
  amount_due: string | null;
}

export interface HostedInvoice extends HostedStatus {
  workspaceName: string;
  environment: 'test' | 'live';
  description: string | null;
  amount: string;
  network: Network;
  networkName: string;
  payAmount: string;
  payAddress: string;
  paymentUri: string;
  /** Priced in fiat (docs/rates.md): the price and the rate locked for the invoice's life; null otherwise. */
  price: { amount: string; currency: PriceCurrency; rate: string; rateAt: string } | null;
  /** Only once paid: the payer's receipt (docs/hosted-page.md "Receipt"). */
  receipt: HostedReceipt | null;
}

export interface HostedReceipt {
  invoiceId: string;
  orderId: string | null;
  paidAt: string;
  /** What the settling payment(s) credited: amount_received, in the invoice's currency. */
  amountPaid: string;
  /** The settling transaction; null only if the invoice has none recorded. */
  transaction: { hash: string; simulated: boolean; explorerUrl: string | null } | null;
}

type Row = { invoice: InvoiceSnapshot; workspace_id: string; workspace_name: string };

async function rowByToken(token: string): Promise<Row | null> {
  if (!PAY_TOKEN_PATTERN.test(token)) return null;
  const rows = await runStatement<Row>(
    meteringSql(),
    // INVOICE_SNAPSHOT_SQL's columns are unqualified: the workspace's name comes from a subquery, not a join.
    `SELECT ${INVOICE_SNAPSHOT_SQL} AS invoice, workspace_id,
            (SELECT w.name FROM workspaces w WHERE w.id = invoices.workspace_id) AS workspace_name
       FROM invoices WHERE pay_token = $1`,
    [token],
  );
  return rows[0] ?? null;
}

export async function hostedInvoice(token: string, now = new Date()): Promise<HostedInvoice | null> {
  const row = await rowByToken(token);
  if (!row) return null;
  const invoice = toInvoiceResource(fromSnapshot(row.invoice), now);
  const inFlight = invoice.payments.filter((payment) => payment.status === 'pending');
  // A further payment still confirming after a partial one left the invoice pending (Bitcoin; it is credited when
  // it confirms, docs/settlement.md): the payer sees it detected, and only what nothing in flight covers as due.
  const status = invoice.status === 'pending' && inFlight.length > 0 ? 'processing' : invoice.status;
  const required = isEvmNetwork(invoice.network)
    ? confirmations(invoice.network)
    : invoice.network === 'tron'
      ? tronConfirmations()
      : invoice.network === 'bitcoin'
        ? bitcoinConfirmations()
        : null;
  // Payments to an invoice's own address add up (Bitcoin): after a partial one, the page asks for the rest.
  const due =
    invoice.network === 'bitcoin' && invoice.payment_exception === 'underpaid'
      ? remainingDue(
          invoice.amount,
          [invoice.amount_received, ...inFlight.map((payment) => payment.amount)],
          CURRENCY_RULES[invoice.currency as Currency].decimals,
        )
      : null;
  return {
    status,
    confirmations: status === 'processing' && inFlight[0] ? inFlight[0].confirmations : null,
    confirmations_required: status === 'processing' ? required : null,
    expires_at: invoice.expires_at,
    redirect_url: invoice.status === 'paid' ? invoice.redirect_url : null,
    workspaceName: row.workspace_name,
    environment: invoice.environment,
    description: invoice.description,
    amount: invoice.amount,
    currency: invoice.currency,
    network: invoice.network,
    networkName: NETWORK_NAMES[invoice.network],
    amount_received: invoice.amount_received,
    amount_due: due,
    payAmount: due ?? invoice.pay_amount,
    payAddress: invoice.pay_address,
    paymentUri:
      due === null
        ? invoice.payment_uri
        : paymentUri({
            currency: invoice.currency,
            network: invoice.network,
            address: invoice.pay_address,
            payAmount: due,
          }),
    price:
      invoice.price_amount !== null &&
      invoice.price_currency !== null &&
      invoice.rate !== null &&
      invoice.rate_at !== null
        ? {
            amount: invoice.price_amount,
            currency: invoice.price_currency,
            rate: invoice.rate,
            rateAt: invoice.rate_at,
          }
        : null,
    receipt:
      invoice.status === 'paid' && invoice.paid_at
        ? {
            invoiceId: invoice.id,
            orderId: invoice.order_id,
            paidAt: invoice.paid_at,
            amountPaid: invoice.amount_received,
            transaction: invoice.payment
              ? {
                  hash: invoice.payment.tx_hash,
                  simulated: invoice.payment.simulated,
                  explorerUrl: invoice.payment.simulated
                    ? null
                    : explorerTxUrl(invoice.network, invoice.payment.tx_hash),
                }
              : null,
          }
        : null,
  };
}

/** amount − what was received or is in flight, in base units (exact), as a decimal string; null when nothing is left. */
function remainingDue(amount: string, covered: string[], decimals: number): string | null {
  const rest = covered.reduce((left, value) => left - toBaseUnits(value, decimals), toBaseUnits(amount, decimals));
  return rest > 0n ? fromBaseUnits(rest, decimals) : null;
}

export async function hostedStatus(token: string, now = new Date()): Promise<HostedStatus | null> {
  const invoice = await hostedInvoice(token, now);
  if (!invoice) return null;
  const {
    status,
    confirmations: seen,
    confirmations_required,
    expires_at,
    redirect_url,
    currency,
    amount_received,
    amount_due,
  } = invoice;
  return {
    status,
    confirmations: seen,
    confirmations_required,
    expires_at,
    redirect_url,
    currency,
    amount_received,
    amount_due,
  };
}

/**
 * "Simulate payment" on a test invoice's page: the same domain function as POST /v1/invoices/{id}/simulate_payment,
 * scoped to the invoice's own workspace and environment (so live invoices get test_mode_only, paid ones 409).
 * Returns null when the token names no invoice.
 */
export async function simulateHostedPayment(token: string, now = new Date()) {
  const row = await rowByToken(token);
  if (!row) return null;
  const record = fromSnapshot(row.invoice);
  await simulateInvoicePayment({ workspaceId: row.workspace_id, environment: record.environment }, record.id, now);
  return hostedStatus(token, now);
}
