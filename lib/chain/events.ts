import type { Prisma } from '../db';

/**
 * The settlement events (SPEC §6/§7), recorded inside the transaction that makes the change they report.
 * EVENTS-HOOK: until lib/events lands on this branch this only names the spot; after `git merge main` it calls
 * recordInvoiceEvent / recordEvent.
 */
export type SettlementEventType = 'invoice.processing' | 'invoice.paid' | 'invoice.payment_reverted' | 'invoice.paid_late';

export async function recordSettlementInvoiceEvent(tx: Prisma.TransactionClient, invoiceId: string, type: SettlementEventType, at: Date): Promise<void> {
  void tx;
  void invoiceId;
  void type;
  void at;
}

/** payment.unmatched, to every workspace with a live wallet at the payment's address on its network. */
export async function recordUnmatchedPaymentEvents(tx: Prisma.TransactionClient, paymentId: string, at: Date): Promise<void> {
  void tx;
  void paymentId;
  void at;
}
