import { db, TRANSACTION_OPTIONS, type Prisma } from '../db';
import { newId } from '../ids';
import { MONITORING_WINDOW_MS } from '../invoices/pay-amount';
import { INVOICE_TRANSITIONS } from '../invoices/state';
import {
  settlementAssignments,
  settlementOutcomeSql,
  statusSql,
  transitionToSql,
  transitionWhere,
} from '../invoices/transition-sql';
import { recordSettlementInvoiceEvents, recordSettlementOutcomeEvents, recordUnmatchedPaymentEvents } from './events';
import { tolerancePercentSql } from '../workspaces/payment-tolerance';

/**
 * Settlement state changes (docs/settlement.md). Each runs in one transaction with the events it reports, so a change is
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
  /** Null for a transaction only in the mempool (Bitcoin): recorded with 0 confirmations. */
  blockNumber: bigint | null;
  blockHash: string | null;
  /** The block's time; for a mempool sighting, when it was seen. */
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

/**
 * Records the transfers of a block range and moves the cursor past it, in one transaction of four statements
 * whatever the number of transfers (record, attribute, events, cursor): a range's transfers are matched to
 * invoices set-based, so settling 1,000 transfers costs what settling one does plus the rows.
 */
export async function recordTransfers(transfers: Transfer[], cursor: Cursor, now: Date = new Date()): Promise<void> {
  await db().$transaction(
    async (tx) => {
      const recorded = await insertPayments(tx, transfers, now);
      const processing = await attribute(tx, recorded);
      await recordSettlementInvoiceEvents(tx, processing, INVOICE_TRANSITIONS.detect.event, now);
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
 * Records each transfer once: a duplicate (a block read again after a restart) is ignored; a transfer seen
 * again after its block was reorganised away (status reverted) is recorded afresh, unattributed; a pending
 * mempool sighting (no block) found in a block gets that block, keeping its invoice and detection time. Returns
 * the ids of the unattributed rows recorded now, the only ones to attribute.
 */
async function insertPayments(tx: Prisma.TransactionClient, transfers: Transfer[], now: Date): Promise<string[]> {
  // ON CONFLICT cannot touch one row twice in a statement: a transfer listed twice is recorded once.
  const unique = [...new Map(transfers.map((t) => [`${t.network}:${t.txHash}:${t.logIndex}`, t])).values()];
  if (unique.length === 0) return [];
  const rows = await tx.$queryRawUnsafe<Array<{ id: string; invoice_id: string | null }>>(
    `INSERT INTO payments (id, network, tx_hash, log_index, currency, amount, from_address, to_address, block_number, block_hash,
                           block_time, status, confirmations, detected_at, wallet_workspace_id)
     SELECT t.id, t.network, t.tx_hash, t.log_index, t.currency, t.amount, t.from_address, t.to_address, t.block_number, t.block_hash,
            t.block_time, 'pending', CASE WHEN t.block_number IS NULL THEN 0 ELSE 1 END, $12::timestamptz,
            wallet_workspace_at(t.network, t.to_address, t.block_time)
       FROM unnest($1::text[], $2::text[], $3::text[], $4::int[], $5::text[], $6::numeric[], $7::text[], $8::text[], $9::bigint[],
                   $10::text[], $11::timestamptz[])
            AS t(id, network, tx_hash, log_index, currency, amount, from_address, to_address, block_number, block_hash, block_time)
     ON CONFLICT (network, tx_hash, log_index) DO UPDATE
       SET block_number = EXCLUDED.block_number, block_hash = EXCLUDED.block_hash,
           block_time = CASE WHEN payments.status = 'reverted' THEN EXCLUDED.block_time ELSE payments.block_time END,
           status = 'pending', confirmations = EXCLUDED.confirmations,
           invoice_id = CASE WHEN payments.status = 'reverted' THEN NULL ELSE payments.invoice_id END,
           detected_at = CASE WHEN payments.status = 'reverted' THEN EXCLUDED.detected_at ELSE payments.detected_at END,
           confirmed_at = NULL,
           wallet_workspace_id = CASE WHEN payments.status = 'reverted' THEN EXCLUDED.wallet_workspace_id ELSE payments.wallet_workspace_id END
       WHERE payments.status = 'reverted'
          OR (payments.status = 'pending' AND payments.block_number IS NULL AND EXCLUDED.block_number IS NOT NULL)
     RETURNING id, invoice_id`,
    unique.map(() => newId('payment')),
    unique.map((t) => t.network),
    unique.map((t) => t.txHash),
    unique.map((t) => t.logIndex),
    unique.map((t) => t.currency),
    unique.map((t) => t.amount),
    unique.map((t) => t.from),
    unique.map((t) => t.to),
    unique.map((t) => t.blockNumber?.toString() ?? null),
    unique.map((t) => t.blockHash),
    unique.map((t) => t.blockTime.toISOString()),
    now,
  );
  return rows.filter((row) => row.invoice_id === null).map((row) => row.id);
}

/**
 * Attributes newly recorded payments, in one statement: each to the live invoice holding exactly its amount on
 * that network, asset and address (the reservation's primary key makes that at most one invoice), if its block
 * time lies inside the invoice's window and the invoice has no live payment yet. When several transfers of a
 * range pay one invoice, the earliest (block, log index) takes it; the others stay unmatched. The invoice's
 * update is a compare-and-set on `pending` (a concurrent cancel or attach wins or loses whole), and only the
 * payments of invoices it changed are linked. Included before expires_at → the invoice is processing; after →
 * it stays expired until the confirmation makes it paid_late. Returns the invoices now processing, in the
 * order of their payments.
 */
async function attribute(tx: Prisma.TransactionClient, paymentIds: string[]): Promise<string[]> {
  if (paymentIds.length === 0) return [];
  // detect (included before expires_at → processing) and detect_late (after → stays pending) leave one state.
  const inclusion = { invoice: 'i.', includedAt: 'p.block_time' };
  const rows = await tx.$queryRawUnsafe<Array<{ id: string }>>(
    `WITH recorded AS (SELECT * FROM payments WHERE id = ANY($1::text[])),
     -- The invoice a payment is for: by exact amount on a shared wallet (amount_reservations), or by its own
     -- address (Bitcoin: bitcoin_addresses), inside the invoice's window.
     matched AS (
       SELECT p.id AS payment_id, i.id AS invoice_id, i.status, r.by_address, ${transitionWhere('detect_late', inclusion)} AS late,
              (${transitionWhere('detect', inclusion)} OR ${transitionWhere('detect_late', inclusion)}) AS detectable,
              p.block_number, p.log_index
         FROM recorded p
         JOIN LATERAL (
           SELECT a.invoice_id, a.reserved_until, false AS by_address FROM amount_reservations a
            WHERE a.network = p.network AND a.currency = p.currency AND a.address = p.to_address AND a.pay_amount = p.amount
           UNION ALL
           SELECT b.invoice_id, NULL, true FROM bitcoin_addresses b WHERE b.network = p.network AND b.address = p.to_address
         ) r ON true
         JOIN invoices i ON i.id = r.invoice_id
        WHERE i.environment = 'live' AND i.currency = p.currency
          AND p.block_time >= i.created_at - make_interval(secs => $2)
          AND p.block_time <= COALESCE(r.reserved_until, i.expires_at + make_interval(secs => $3))),
     -- Amount attribution: one live payment per invoice. Address attribution: payments add up, so a further one
     -- is taken while none is in flight (an underpaid invoice is payable again).
     candidate AS (
       SELECT DISTINCT ON (m.invoice_id) m.payment_id, m.invoice_id, m.late, m.block_number, m.log_index
         FROM matched m
        WHERE m.detectable
          AND NOT EXISTS (SELECT 1 FROM payments o WHERE o.invoice_id = m.invoice_id AND o.status <> 'reverted'
                             AND (NOT m.by_address OR o.status = 'pending'))
        ORDER BY m.invoice_id, m.block_number NULLS LAST, m.log_index),
     attributed AS (
       UPDATE invoices i SET has_payments = true,
              status = CASE WHEN c.late THEN ${transitionToSql('detect_late')} ELSE ${transitionToSql('detect')} END
         FROM candidate c
        WHERE i.id = c.invoice_id AND i.status = CASE WHEN c.late THEN ${statusSql(INVOICE_TRANSITIONS.detect_late.from)} ELSE ${statusSql(INVOICE_TRANSITIONS.detect.from)} END
       RETURNING i.id, c.payment_id, c.late, c.block_number, c.log_index),
     linked AS (UPDATE payments p SET invoice_id = a.id FROM attributed a WHERE p.id = a.payment_id),
     -- Every payment to an invoice's own address belongs to it while it is payable or in flight (a second output
     -- of the same block, a further payment while one is unconfirmed): linked, credited at confirmation.
     also_linked AS (
       UPDATE payments p SET invoice_id = m.invoice_id FROM matched m
        WHERE p.id = m.payment_id AND m.by_address
          AND m.status IN (${statusSql(INVOICE_TRANSITIONS.detect.from)}, ${statusSql(INVOICE_TRANSITIONS.confirm.from)})
          AND NOT EXISTS (SELECT 1 FROM attributed a WHERE a.payment_id = m.payment_id))
     SELECT id FROM attributed WHERE NOT late ORDER BY block_number NULLS LAST, log_index`,
    paymentIds,
    MATCH_CLOCK_TOLERANCE_SECONDS,
    MONITORING_WINDOW_MS / 1000,
  );
  return rows.map((row) => row.id);
}

/**
 * Pending payments whose confirmations are reached and whose receipts were re-read (same block, success), in
 * one transaction: the payments confirmed; their invoices credited by the rule that takes them
 * (lib/invoices/state.ts) — confirm (processing) and confirm_underpaid (pending after a partial payment, this
 * payment included before expires_at) → SETTLEMENT_OUTCOMES (`invoice.paid` when paid); confirm_late (included
 * after expires_at: the invoice stays expired, `invoice.paid_late`, the merchant decides). The payments of one
 * invoice confirmed together are credited as one sum. A linked payment that no rule takes (its invoice was paid
 * or cancelled meanwhile) is unlinked: like an unattributed one it is reported (`payment.unmatched`; decision: at
 * confirmation, so a reorganised-away transfer never produces one) and listed for the merchant to attach. So
 * each confirmed payment is credited to one invoice, once, or listed as unmatched.
 */
export async function confirmPayments(
  paymentIds: readonly string[],
  confirmations: number,
  now: Date = new Date(),
): Promise<void> {
  if (paymentIds.length === 0) return;
  await db().$transaction(async (tx) => {
    const confirmed = await tx.$queryRawUnsafe<Array<{ id: string; invoice_id: string | null }>>(
      `UPDATE payments SET status = 'confirmed', confirmed_at = $2::timestamptz, confirmations = $3
        WHERE id = ANY($1::text[]) AND status = 'pending'
       RETURNING id, invoice_id, block_number, log_index`,
      [...paymentIds],
      now,
      confirmations,
    );
    const position = new Map(paymentIds.map((id, index) => [id, index]));
    const ordered = confirmed.sort((a, b) => (position.get(a.id) ?? 0) - (position.get(b.id) ?? 0));
    const matched = ordered.filter((row) => row.invoice_id !== null).map((row) => row.id);
    const credited = new Set<string>();
    if (matched.length > 0) {
      // The invoices are locked first and read from the lock (their latest version); the outcome is computed
      // before the UPDATE (RETURNING sees the new amount_received).
      const batch = `batch AS (
           SELECT o.n, p.id, p.invoice_id, p.amount, p.tx_hash, p.block_time
             FROM unnest($1::text[]) WITH ORDINALITY AS o(id, n) JOIN payments p ON p.id = o.id)`;
      const settled = await tx.$queryRawUnsafe<Array<{ id: string; outcome: number; payment_ids: string[] }>>(
        `WITH ${batch},
         locked AS (SELECT i.* FROM invoices i WHERE i.id IN (SELECT invoice_id FROM batch) ORDER BY i.id FOR UPDATE),
         sums AS (
           SELECT b.invoice_id, min(b.n) AS n, sum(b.amount) AS amount, (array_agg(b.tx_hash ORDER BY b.n DESC))[1] AS tx_hash,
                  array_agg(b.id) AS payment_ids
             FROM batch b JOIN locked i ON i.id = b.invoice_id
            WHERE (${transitionWhere('confirm', { invoice: 'i.' })})
               OR (${transitionWhere('confirm_underpaid', { invoice: 'i.', includedAt: 'b.block_time' })})
            GROUP BY b.invoice_id),
         credit AS (
           SELECT i.id, s.n, s.tx_hash, s.payment_ids, i.amount_received + s.amount AS total,
                  ${settlementOutcomeSql({ invoice: 'i.', total: 'i.amount_received + s.amount', tolerancePercent: tolerancePercentSql('i.') })} AS outcome
             FROM sums s JOIN locked i ON i.id = s.invoice_id),
         settled AS (
           UPDATE invoices i SET ${settlementAssignments({ outcome: 'c.outcome', total: 'c.total', txHash: 'c.tx_hash', now: '$2::timestamptz' })}
             FROM credit c
            WHERE i.id = c.id
           RETURNING i.id, c.n, c.outcome, c.payment_ids)
         SELECT id, outcome, payment_ids FROM settled ORDER BY n`,
        matched,
        now,
      );
      await recordSettlementOutcomeEvents(tx, settled, now);
      for (const row of settled) for (const id of row.payment_ids) credited.add(id);
      // Late payments not credited above (an invoice this statement left underpaid is pending again, but its
      // payments were credited by it): summed per invoice, as above.
      const late = await tx.$queryRawUnsafe<Array<{ id: string; payment_ids: string[] }>>(
        `WITH ${batch},
         sums AS (
           SELECT b.invoice_id, min(b.n) AS n, sum(b.amount) AS amount, min(b.block_time) AS included_at, array_agg(b.id) AS payment_ids
             FROM batch b WHERE b.id <> ALL($3::text[])
            GROUP BY b.invoice_id),
         late AS (
           UPDATE invoices i SET amount_received = i.amount_received + s.amount, payment_exception = $2
             FROM sums s
            WHERE i.id = s.invoice_id AND ${transitionWhere('confirm_late', { invoice: 'i.', includedAt: 's.included_at' })}
           RETURNING i.id, s.n, s.payment_ids)
         SELECT id, payment_ids FROM late ORDER BY n`,
        matched,
        INVOICE_TRANSITIONS.confirm_late.exception,
        [...credited],
      );
      await recordSettlementInvoiceEvents(
        tx,
        late.map((row) => row.id),
        INVOICE_TRANSITIONS.confirm_late.event,
        now,
      );
      for (const row of late) for (const id of row.payment_ids) credited.add(id);
    }
    // Linked but taken by no rule: the invoice is no longer payable (paid or cancelled meanwhile).
    const uncredited = matched.filter((id) => !credited.has(id));
    if (uncredited.length > 0)
      await tx.$executeRaw`UPDATE payments SET invoice_id = NULL WHERE id = ANY(${uncredited}::text[])`;
    const unmatched = new Set([
      ...ordered.filter((row) => row.invoice_id === null).map((row) => row.id),
      ...uncredited,
    ]);
    await recordUnmatchedPaymentEvents(
      tx,
      ordered.map((row) => row.id).filter((id) => unmatched.has(id)),
      now,
    );
  }, TRANSACTION_OPTIONS);
}

/**
 * Pending payments whose block was reorganised away (or whose transaction failed, or that left the mempool
 * unmined), in one transaction: the payments reverted; their processing invoices back to pending (reading
 * expired when past expires_at) unless another of their on-time payments is still pending (the revert rule's
 * guard: money is still in flight), and `invoice.payment_reverted` for every invoice that had one of them.
 */
export async function revertPayments(paymentIds: readonly string[], now: Date = new Date()): Promise<void> {
  if (paymentIds.length === 0) return;
  await db().$transaction(async (tx) => {
    const rows = await tx.$queryRawUnsafe<Array<{ invoice_id: string }>>(
      `WITH reverted AS (
         UPDATE payments p SET status = 'reverted', confirmations = 0
           FROM unnest($1::text[]) WITH ORDINALITY AS o(id, n)
          WHERE p.id = o.id AND p.status = 'pending'
         RETURNING p.invoice_id, o.n)
       SELECT invoice_id FROM reverted WHERE invoice_id IS NOT NULL ORDER BY n`,
      [...paymentIds],
    );
    const invoiceIds = [...new Set(rows.map((row) => row.invoice_id))];
    if (invoiceIds.length === 0) return;
    // A separate statement: its guard sees the payments reverted above.
    await tx.$executeRawUnsafe(
      `UPDATE invoices i SET status = ${transitionToSql('revert')} WHERE i.id = ANY($1::text[]) AND ${transitionWhere('revert', { invoice: 'i.' })}`,
      invoiceIds,
    );
    // Every invoice that had one of them is told, whatever its state (a late payment's invoice stays pending,
    // one with another payment in flight stays processing).
    await recordSettlementInvoiceEvents(tx, invoiceIds, INVOICE_TRANSITIONS.revert.event, now);
  }, TRANSACTION_OPTIONS);
}

/** The payment was re-included in another block of the canonical chain: follow it, still pending. */
/**
 * A pending payment whose transaction a reorg re-included in another block: it follows the transaction there,
 * with the log index its Transfer has in that block (a token transfer's index is its position in the block,
 * which moves with the transaction). Keeping the old index would let the rescan of the new block record the
 * same transfer a second time, as an unmatched payment. Returns false when another row already holds the new
 * key (the transfer was recorded there already); this one is then left for the caller to revert.
 */
export async function movePendingPayment(
  paymentId: string,
  moved: { number: bigint; hash: string; logIndex: number },
): Promise<boolean> {
  const updated = await db().$executeRaw`
    UPDATE payments p SET block_number = ${moved.number}, block_hash = ${moved.hash}, log_index = ${moved.logIndex}
     WHERE p.id = ${paymentId} AND p.status = 'pending'
       AND NOT EXISTS (SELECT 1 FROM payments o WHERE o.network = p.network AND o.tx_hash = p.tx_hash AND o.log_index = ${moved.logIndex} AND o.id <> p.id)`;
  return updated === 1;
}

export interface PendingPayment {
  id: string;
  txHash: string;
  logIndex: number;
  blockNumber: bigint;
  blockHash: string;
  /** What the transfer was — to find it again in a re-included transaction's receipt. */
  currency: string;
  fromAddress: string;
  toAddress: string;
  amount: string;
}

/** Pending payments of a network, oldest first; only those in blocks `from`..`to` when given. */
export async function pendingPayments(
  network: string,
  range: { from?: bigint; to?: bigint } = {},
): Promise<PendingPayment[]> {
  const rows = await db().payment.findMany({
    where: {
      network,
      status: 'pending',
      blockNumber: { gte: range.from ?? 0n, ...(range.to === undefined ? {} : { lte: range.to }) },
    },
    orderBy: [{ blockNumber: 'asc' }, { logIndex: 'asc' }],
    select: {
      id: true,
      txHash: true,
      logIndex: true,
      blockNumber: true,
      blockHash: true,
      currency: true,
      fromAddress: true,
      toAddress: true,
      amount: true,
    },
  });
  // The filter on blockNumber leaves out mempool payments (no block yet).
  return rows.map((row) => ({
    ...row,
    blockNumber: row.blockNumber!,
    blockHash: row.blockHash!,
    amount: row.amount.toFixed(),
  }));
}

/** Pending payments seen in the mempool and not (yet) in a block (Bitcoin). */
export async function pendingMempoolPayments(network: string): Promise<Array<{ id: string; txHash: string }>> {
  return db().payment.findMany({
    where: { network, status: 'pending', blockNumber: null },
    select: { id: true, txHash: true },
  });
}

/** Confirmations of every pending payment at chain head `head` (one statement per pass; 0 while in the mempool). */
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
  await db().chainCursor.update({
    where: { network: cursor.network },
    data: { lastBlock: cursor.block, lastBlockHash: cursor.hash },
  });
}

/** The lower-case addresses of live wallets on a network: transfers to anything else are not ours. */
export async function watchedAddresses(network: string): Promise<Set<string>> {
  const rows = await db().$queryRaw<
    Array<{ address: string }>
  >`SELECT DISTINCT lower(address) AS address FROM wallets WHERE network = ${network}`;
  return new Set(rows.map((row) => row.address));
}

/** What re-reading a pending payment on the canonical chain found (each watcher reads; the rule below acts). */
export type Reread =
  { kind: 'same' } | { kind: 'gone' } | { kind: 'moved'; number: bigint; hash: string; logIndex: number };

/**
 * Acts on re-read payments, the same for every chain family: gone → reverted, moved → followed (still pending;
 * reverted when it cannot be followed), same → confirmed together when `confirm`.
 */
export async function applyRereads(
  network: string,
  verdicts: Map<PendingPayment, Reread>,
  confirm: { confirmations: number } | null,
  log?: (entry: { level: 'warn'; event: string; network: string; tx_hash: string }) => void,
): Promise<void> {
  const gone: string[] = [];
  const same: string[] = [];
  for (const [payment, verdict] of verdicts) {
    if (verdict.kind === 'gone') {
      log?.({ level: 'warn', event: 'payment_reverted', network, tx_hash: payment.txHash });
      gone.push(payment.id);
    } else if (verdict.kind === 'moved') {
      if (!(await movePendingPayment(payment.id, verdict))) gone.push(payment.id);
    } else {
      same.push(payment.id);
    }
  }
  await revertPayments(gone);
  if (confirm) await confirmPayments(same, confirm.confirmations);
}
