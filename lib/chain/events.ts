import type { Prisma } from '../db';
import { recordEvent } from '../events/store';
import { recordInvoiceEvent } from '../invoices/invoice-events';
import { toPaymentResource } from '../invoices/serialize';

/**
 * The settlement events (SPEC §6/§7), recorded inside the transaction that makes the change they report
 * (lib/chain/settle.ts, lib/chain/unmatched.ts): no change without its event, no event for a rolled-back change.
 */
export type SettlementEventType = 'invoice.processing' | 'invoice.paid' | 'invoice.payment_reverted' | 'invoice.paid_late';

export async function recordSettlementInvoiceEvent(tx: Prisma.TransactionClient, invoiceId: string, type: SettlementEventType, at: Date): Promise<void> {
  await recordInvoiceEvent(tx, invoiceId, type, at);
}

/**
 * payment.unmatched, to every workspace with a wallet at the payment's address on its network (live events:
 * chain transfers never concern test mode). The snapshot is the payment as the API shows it.
 */
export async function recordUnmatchedPaymentEvents(tx: Prisma.TransactionClient, paymentId: string, at: Date): Promise<void> {
  const payment = await tx.payment.findUniqueOrThrow({ where: { id: paymentId } });
  const wallets = await tx.$queryRaw<Array<{ workspace_id: string }>>`
    SELECT DISTINCT workspace_id FROM wallets WHERE network = ${payment.network} AND lower(address) = ${payment.toAddress}`;
  const snapshot = { object: 'payment', ...toPaymentResource(payment), to: payment.toAddress, invoice: null };
  for (const wallet of wallets) {
    await recordEvent(tx, { workspaceId: wallet.workspace_id, environment: 'live', type: 'payment.unmatched', snapshot, at });
  }
}
