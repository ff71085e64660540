import { db, TRANSACTION_OPTIONS } from '../db';
import { AppError } from '../errors';
import { formatAmount } from '../invoices/serialize';
import { INVOICE_TRANSITIONS } from '../invoices/state';
import { settlementAssignments, settlementOutcomeSql, transitionWhere } from '../invoices/transition-sql';
import { recordSettlementOutcomeEvents } from './events';
import { tolerancePercentSql } from '../workspaces/payment-tolerance';

/** A confirmed transfer to one of the workspace's wallets that matched no invoice (docs/settlement.md). */
export interface UnmatchedPayment {
  id: string;
  network: string;
  currency: string;
  amount: string;
  txHash: string;
  from: string;
  to: string;
  blockNumber: number;
  confirmedAt: Date | null;
}

/**
 * Newest first: confirmed payments with no invoice, sent to an address that was this workspace's wallet at the
 * payment's block time (payments.wallet_workspace_id), never whoever holds the address now.
 */
export async function listUnmatchedPayments(workspaceId: string, limit = 100): Promise<UnmatchedPayment[]> {
  const rows = await db().$queryRaw<
    Array<{
      id: string;
      network: string;
      currency: string;
      amount: string;
      tx_hash: string;
      from_address: string;
      to_address: string;
      block_number: bigint;
      confirmed_at: Date | null;
    }>
  >`
    SELECT p.id, p.network, p.currency, p.amount::text AS amount, p.tx_hash, p.from_address, p.to_address, p.block_number, p.confirmed_at
      FROM payments p
     WHERE p.invoice_id IS NULL AND p.status = 'confirmed'
       AND p.wallet_workspace_id = ${workspaceId}
     ORDER BY p.block_number DESC, p.log_index DESC
     LIMIT ${limit}`;
  return rows.map((row) => ({
    id: row.id,
    network: row.network,
    currency: row.currency,
    amount: formatAmount(row.amount),
    txHash: row.tx_hash,
    from: row.from_address,
    to: row.to_address,
    blockNumber: Number(row.block_number),
    confirmedAt: row.confirmed_at,
  }));
}

/**
 * The merchant attaches an unmatched payment to one of its live invoices (same network and asset, not paid,
 * cancelled or processing): the `attach` transition of lib/invoices/state.ts, whose SETTLEMENT_OUTCOMES say
 * amount_received ≥ amount → paid (payment_exception "overpaid" above pay_amount); less → stays pending, "underpaid". One transaction, with invoice.paid when it pays the invoice. Both rows are
 * locked, so a payment is attached once and an invoice is paid once whatever the concurrency.
 */
export async function attachPayment(workspaceId: string, paymentId: string, invoiceId: string, now: Date = new Date()) {
  return db().$transaction(async (tx) => {
    const payments = await tx.$queryRaw<Array<{ network: string; currency: string; amount: string; tx_hash: string }>>`
      SELECT p.network, p.currency, p.amount::text AS amount, p.tx_hash FROM payments p
       WHERE p.id = ${paymentId} AND p.invoice_id IS NULL AND p.status = 'confirmed'
         AND p.wallet_workspace_id = ${workspaceId}
       FOR UPDATE OF p`;
    const payment = payments[0];
    if (!payment)
      throw new AppError('not_found', "No unmatched payment with this id was sent to this workspace's wallets");
    const invoices = await tx.$queryRaw<Array<{ status: string; network: string; currency: string }>>`
      SELECT status::text AS status, network, currency FROM invoices
       WHERE id = ${invoiceId} AND workspace_id = ${workspaceId} AND environment = 'live' FOR UPDATE`;
    const invoice = invoices[0];
    if (!invoice) throw new AppError('invoice_not_found', 'No live invoice with this id exists in this workspace');
    if (invoice.network !== payment.network || invoice.currency !== payment.currency) {
      throw new AppError(
        'invoice_not_payable',
        `The payment is ${payment.currency} on ${payment.network}; the invoice is ${invoice.currency} on ${invoice.network}`,
      );
    }
    if (invoice.status !== INVOICE_TRANSITIONS.attach.from) {
      throw new AppError(
        'invoice_not_payable',
        `Only pending or expired invoices take a payment; this invoice is ${invoice.status}`,
      );
    }
    await tx.$executeRaw`UPDATE payments SET invoice_id = ${invoiceId} WHERE id = ${paymentId}`;
    // The attach transition: SETTLEMENT_OUTCOMES decides status, exception and event from the new total.
    const total = 'i.amount_received + $2::numeric';
    const updated = await tx.$queryRawUnsafe<
      Array<{ id: string; outcome: number; status: string; payment_exception: string | null }>
    >(
      `WITH credit AS (
         SELECT i.id, ${total} AS total, $4::text AS tx_hash,
                ${settlementOutcomeSql({ invoice: 'i.', total, tolerancePercent: tolerancePercentSql('i.') })} AS outcome
           FROM invoices i WHERE i.id = $1 AND ${transitionWhere('attach', { invoice: 'i.' })})
       UPDATE invoices i SET has_payments = true,
              ${settlementAssignments({ outcome: 'c.outcome', total: 'c.total', txHash: 'c.tx_hash', now: '$3::timestamptz' })}
         FROM credit c
        WHERE i.id = c.id
       RETURNING i.id, c.outcome, i.status::text AS status, i.payment_exception`,
      invoiceId,
      payment.amount,
      now,
      payment.tx_hash,
    );
    const result = updated[0]!;
    await recordSettlementOutcomeEvents(tx, [result], now);
    return { status: result.status, paymentException: result.payment_exception };
  }, TRANSACTION_OPTIONS);
}
