import { durableSql, runStatement } from '../db';
import { newId } from '../ids';
import { invoiceEventInsertSql } from './invoice-events';
import { INVOICE_TRANSITIONS } from './state';
import { transitionWhere } from './transition-sql';

/**
 * Expiry is derived at read time (a pending invoice past expires_at reads as expired), but integrators must be
 * told: the worker calls this every couple of seconds and each due invoice gets exactly one invoice.expired
 * event, written in the statement that marks it announced. SKIP LOCKED lets several workers share the sweep.
 * Returns how many invoices were announced (the caller repeats while a batch comes back full). The rule (which
 * invoices, which event) is the `expire` transition of lib/invoices/state.ts.
 */
export async function announceExpiredInvoices(now: Date = new Date(), batch = 500): Promise<number> {
  const eventIds = Array.from({ length: batch }, () => newId('event'));
  const rows = await runStatement<{ announced: string }>(
    durableSql(),
    `WITH locked AS (
        SELECT id FROM invoices
         WHERE ${transitionWhere('expire', { now: '$1::timestamptz' })}
         ORDER BY expires_at LIMIT $2 FOR UPDATE SKIP LOCKED),
      due AS (SELECT id, (row_number() OVER ())::int AS n FROM locked),
      announced AS (
        UPDATE invoices i SET expiry_announced_at = $1::timestamptz FROM due WHERE i.id = due.id RETURNING i.*, due.n),
      expired_events AS (
        ${invoiceEventInsertSql({ id: '($3::text[])[n]', type: '$4', createdAt: '$1::timestamptz', from: 'announced' })})
      SELECT count(*)::text AS announced FROM announced`,
    [now, batch, eventIds, INVOICE_TRANSITIONS.expire.event],
  );
  return Number(rows[0]?.announced ?? 0);
}
