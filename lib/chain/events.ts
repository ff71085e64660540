import type { Prisma } from '../db';
import { recordEvents } from '../events/store';
import { recordInvoiceEvents } from '../invoices/invoice-events';
import { toPaymentResource } from '../invoices/serialize';
import { settlementOutcome } from '../invoices/transition-sql';

/**
 * The settlement events (docs/webhooks.md, docs/settlement.md), recorded inside the transaction that makes the change they report
 * (lib/chain/settle.ts, lib/chain/unmatched.ts): no change without its event, no event for a rolled-back change.
 */
export type SettlementEventType =
  'invoice.processing' | 'invoice.paid' | 'invoice.payment_reverted' | 'invoice.paid_late';

/** For one invoice or many at once (one statement): the watcher settles a whole block range together. */
export async function recordSettlementInvoiceEvents(
  tx: Prisma.TransactionClient,
  invoiceIds: readonly string[],
  type: SettlementEventType,
  at: Date,
): Promise<void> {
  await recordInvoiceEvents(tx, invoiceIds, type, at);
}

/**
 * The events of settled invoices (confirm, attach), per outcome (SETTLEMENT_OUTCOMES' event; none for an
 * outcome without one), in the order given.
 */
export async function recordSettlementOutcomeEvents(
  tx: Prisma.TransactionClient,
  settled: ReadonlyArray<{ id: string; outcome: number }>,
  now: Date,
): Promise<void> {
  const byEvent = new Map<SettlementEventType, string[]>();
  for (const row of settled) {
    const event = settlementOutcome(row.outcome).event;
    if (event !== null) byEvent.set(event, [...(byEvent.get(event) ?? []), row.id]);
  }
  for (const [event, ids] of byEvent) await recordSettlementInvoiceEvents(tx, ids, event, now);
}

/**
 * payment.unmatched, to the workspace whose wallet the payment's address was at its block time (live events:
 * chain transfers never concern test mode), for each of `paymentIds` in that order. The snapshot is the
 * payment as the API shows it. Two statements whatever the number of payments.
 */
export async function recordUnmatchedPaymentEvents(
  tx: Prisma.TransactionClient,
  paymentIds: readonly string[],
  at: Date,
): Promise<void> {
  if (paymentIds.length === 0) return;
  const payments = await tx.payment.findMany({ where: { id: { in: [...paymentIds] } } });
  const byId = new Map(payments.map((payment) => [payment.id, payment]));
  // To the workspace whose wallet the recipient was at the block time (recorded on the payment), never to
  // whoever holds the address in the wallet table now (lib/wallets/ownership/claim.ts).
  const events = paymentIds.flatMap((id) => {
    const payment = byId.get(id);
    if (!payment?.walletWorkspaceId) return [];
    const snapshot = { object: 'payment', ...toPaymentResource(payment), to: payment.toAddress, invoice: null };
    return [
      {
        workspaceId: payment.walletWorkspaceId,
        environment: 'live' as const,
        type: 'payment.unmatched' as const,
        snapshot,
        at,
      },
    ];
  });
  await recordEvents(tx, events);
}
