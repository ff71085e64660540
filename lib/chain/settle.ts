import { db, TRANSACTION_OPTIONS, type Prisma } from '../db';
import { newId } from '../ids';
import { CHAIN_TRANSITIONS } from '../invoices/state';
import { recordSettlementInvoiceEvent, recordUnmatchedPaymentEvents } from './events';

/**
 * Settlement state changes (SPEC §7). Each runs in one transaction with the events it reports, so a change is
 * never without its event and a crash loses nothing: the watcher's cursor moves in the same transaction as the
 * transfers of the blocks it covers, and (network, tx_hash, log_index) is unique, so re-reading a block after
 * a restart or a reorg never records or credits a transfer twice.
 */

/** A transfer of a watched asset to a watched wallet, as read from a block. */
export interface Transfer {
  network: string;
  txHash: string;
  /** -1 for a native transfer. */
  logIndex: number;
  currency: string;
  from: string;
  /** Lower-case. */
  to: string;
  /** Decimal string of the amount (base units scaled by the asset's decimals). */
  amount: string;
  blockNumber: bigint;
  blockHash: string;
  blockTime: Date;
}

export interface Cursor {
  network: string;
  chainId: number;
  block: bigint;
  hash: string;
}

/**
 * Block times are whole seconds and chain and server clocks differ a little: a transfer counts for an invoice
 * from this long before its created_at (its amount was reserved for it since then, so nothing else can match).
 */
export const MATCH_CLOCK_TOLERANCE_SECONDS = 60;

/** Records the transfers of a block range and moves the cursor past it, in one transaction. */
export async function recordTransfers(transfers: Transfer[], cursor: Cursor, now: Date = new Date()): Promise<void> {
  await db().$transaction(
    async (tx) => {
      for (const transfer of transfers) await recordTransfer(tx, transfer, now);
      await tx.$executeRaw`
        INSERT INTO chain_cursors (network, chain_id, last_block, last_block_hash, updated_at)
        VALUES (${cursor.network}, ${cursor.chainId}, ${cursor.block}, ${cursor.hash}, ${now})
        ON CONFLICT (network) DO UPDATE SET chain_id = EXCLUDED.chain_id, last_block = EXCLUDED.last_block,
          last_block_hash = EXCLUDED.last_block_hash, updated_at = EXCLUDED.updated_at`;
    },
    { ...TRANSACTION_OPTIONS, timeout: 60_000 },
  );
}

/**
 * One transfer: recorded once (a duplicate is ignored; a transfer seen again after its block was reorganised
 * away is recorded afresh), then attributed to the live invoice holding exactly its amount on that network,
 * asset and address, if the transfer's block time lies inside the invoice's window and nothing else paid it.
 * Included before expires_at → the invoice is processing; after → it stays expired until the confirmation
 * makes it paid_late.
 */
async function recordTransfer(tx: Prisma.TransactionClient, t: Transfer, now: Date): Promise<void> {
  const recorded = await tx.$queryRaw<Array<{ id: string }>>`
    INSERT INTO payments (id, network, tx_hash, log_index, currency, amount, from_address, to_address, block_number, block_hash,
                          block_time, status, confirmations, detected_at)
    VALUES (${newId('payment')}, ${t.network}, ${t.txHash}, ${t.logIndex}, ${t.currency}, ${t.amount}::numeric, ${t.from}, ${t.to},
            ${t.blockNumber}, ${t.blockHash}, ${t.blockTime}, 'pending', 1, ${now})
    ON CONFLICT (network, tx_hash, log_index) DO UPDATE
      SET block_number = EXCLUDED.block_number, block_hash = EXCLUDED.block_hash, block_time = EXCLUDED.block_time,
          status = 'pending', confirmations = 1, invoice_id = NULL, detected_at = EXCLUDED.detected_at, confirmed_at = NULL
      WHERE payments.status = 'reverted'
    RETURNING id`;
  const payment = recorded[0];
  if (!payment) return;
  const candidates = await tx.$queryRaw<Array<{ id: string; late: boolean }>>`
    SELECT i.id, ${t.blockTime}::timestamptz >= i.expires_at AS late
      FROM amount_reservations r JOIN invoices i ON i.id = r.invoice_id
     WHERE r.network = ${t.network} AND r.currency = ${t.currency} AND r.address = ${t.to} AND r.pay_amount = ${t.amount}::numeric
       AND i.environment = 'live' AND i.status = 'pending'
       AND ${t.blockTime}::timestamptz >= i.created_at - make_interval(secs => ${MATCH_CLOCK_TOLERANCE_SECONDS})
       AND ${t.blockTime}::timestamptz <= r.reserved_until
       AND NOT EXISTS (SELECT 1 FROM payments p WHERE p.invoice_id = i.id AND p.status <> 'reverted')
     FOR UPDATE OF i`;
  const invoice = candidates[0];
  if (!invoice) return; // unmatched: reported once confirmed (payment.unmatched)
  await tx.$executeRaw`UPDATE payments SET invoice_id = ${invoice.id} WHERE id = ${payment.id}`;
  await tx.$executeRaw`UPDATE invoices SET has_payments = true WHERE id = ${invoice.id} AND NOT has_payments`;
  if (invoice.late) return;
  const { from, to } = CHAIN_TRANSITIONS.detect;
  await tx.$executeRaw`UPDATE invoices SET status = ${to}::"InvoiceStatus" WHERE id = ${invoice.id} AND status = ${from}::"InvoiceStatus"`;
  await recordSettlementInvoiceEvent(tx, invoice.id, 'invoice.processing', now);
}

/** A pending payment whose confirmations are reached and whose receipt was re-read: same block, success. */
export async function confirmPayment(paymentId: string, confirmations: number, now: Date = new Date()): Promise<void> {
  await db().$transaction(async (tx) => {
    const rows = await tx.$queryRaw<Array<{ invoice_id: string | null; amount: string; tx_hash: string }>>`
      UPDATE payments SET status = 'confirmed', confirmed_at = ${now}, confirmations = ${confirmations}
       WHERE id = ${paymentId} AND status = 'pending'
      RETURNING invoice_id, amount::text, tx_hash`;
    const payment = rows[0];
    if (!payment) return;
    if (!payment.invoice_id) {
      await recordUnmatchedPaymentEvents(tx, paymentId, now);
      return;
    }
    const { from, to } = CHAIN_TRANSITIONS.confirm;
    const paid = await tx.$executeRaw`
      UPDATE invoices SET status = ${to}::"InvoiceStatus", paid_at = ${now}, payment_tx_hash = ${payment.tx_hash},
             payment_amount = ${payment.amount}::numeric, payment_simulated = false,
             amount_received = amount_received + ${payment.amount}::numeric
       WHERE id = ${payment.invoice_id} AND status = ${from}::"InvoiceStatus"`;
    if (paid === 1) {
      await recordSettlementInvoiceEvent(tx, payment.invoice_id, 'invoice.paid', now);
      return;
    }
    // Included after expires_at: the invoice stays expired; the merchant decides.
    const late = await tx.$executeRaw`
      UPDATE invoices SET amount_received = amount_received + ${payment.amount}::numeric, payment_exception = 'paid_late'
       WHERE id = ${payment.invoice_id} AND status = 'pending'`;
    if (late === 1) await recordSettlementInvoiceEvent(tx, payment.invoice_id, 'invoice.paid_late', now);
  }, TRANSACTION_OPTIONS);
}

/** A pending payment whose block was reorganised away (or whose transaction failed): its invoice goes back. */
export async function revertPayment(paymentId: string, now: Date = new Date()): Promise<void> {
  await db().$transaction(async (tx) => {
    const rows = await tx.$queryRaw<Array<{ invoice_id: string | null }>>`
      UPDATE payments SET status = 'reverted', confirmations = 0 WHERE id = ${paymentId} AND status = 'pending' RETURNING invoice_id`;
    const invoiceId = rows[0]?.invoice_id;
    if (!invoiceId) return;
    const { from, to } = CHAIN_TRANSITIONS.revert;
    await tx.$executeRaw`UPDATE invoices SET status = ${to}::"InvoiceStatus" WHERE id = ${invoiceId} AND status = ${from}::"InvoiceStatus"`;
    await recordSettlementInvoiceEvent(tx, invoiceId, 'invoice.payment_reverted', now);
  }, TRANSACTION_OPTIONS);
}

/** The payment was re-included in another block of the canonical chain: follow it, still pending. */
export async function movePendingPayment(paymentId: string, block: { number: bigint; hash: string }): Promise<void> {
  await db().$executeRaw`UPDATE payments SET block_number = ${block.number}, block_hash = ${block.hash} WHERE id = ${paymentId} AND status = 'pending'`;
}

export interface PendingPayment {
  id: string;
  txHash: string;
  logIndex: number;
  blockNumber: bigint;
  blockHash: string;
}

/** Pending payments of a network, oldest block first; `fromBlock`: only those at or above it. */
export async function pendingPayments(network: string, fromBlock = 0n): Promise<PendingPayment[]> {
  const rows = await db().payment.findMany({
    where: { network, status: 'pending', blockNumber: { gte: fromBlock } },
    orderBy: { blockNumber: 'asc' },
    select: { id: true, txHash: true, logIndex: true, blockNumber: true, blockHash: true },
  });
  return rows;
}

/** Confirmations of every pending payment at chain head `head` (one statement per pass). */
export async function countConfirmations(network: string, head: bigint): Promise<void> {
  await db().$executeRaw`
    UPDATE payments SET confirmations = GREATEST(0, ${head} - block_number + 1)::int
     WHERE network = ${network} AND status = 'pending' AND confirmations <> GREATEST(0, ${head} - block_number + 1)::int`;
}

export async function readCursor(network: string): Promise<Cursor | null> {
  const row = await db().chainCursor.findUnique({ where: { network } });
  return row ? { network, chainId: row.chainId, block: row.lastBlock, hash: row.lastBlockHash } : null;
}

/** Moves the cursor back (after a reorg) without recording anything. */
export async function rewindCursor(cursor: Cursor): Promise<void> {
  await db().chainCursor.update({ where: { network: cursor.network }, data: { lastBlock: cursor.block, lastBlockHash: cursor.hash } });
}

/** The lower-case addresses of live wallets on a network: transfers to anything else are not ours. */
export async function watchedAddresses(network: string): Promise<Set<string>> {
  const rows = await db().$queryRaw<Array<{ address: string }>>`SELECT DISTINCT lower(address) AS address FROM wallets WHERE network = ${network}`;
  return new Set(rows.map((row) => row.address));
}
