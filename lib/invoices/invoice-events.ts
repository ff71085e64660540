import type { Prisma } from '../db';
import type { EventType } from '../events/types';
import { eventInsertSql, type EventInsert } from '../events/insert-sql';
import { newId } from '../ids';
import { INVOICE_SNAPSHOT_SQL } from './snapshot';

/**
 * Invoice events are written by the statement or transaction that changes the invoice (docs/webhooks.md), with the
 * invoice's stored row as their snapshot (lib/events/serialize.ts derives the resource from it).
 */

/**
 * A CTE (`, <name> AS (…)`) recording `type` for every invoice row returned by the CTE `source` (which must
 * expose the invoices columns, e.g. `INSERT … RETURNING *`), at time `at`. `param` binds the values. It returns
 * `snapshot`, the invoice's snapshot (lib/invoices/snapshot.ts): the statement answers with it instead of building it twice.
 */
export function invoiceEventCte(
  name: string,
  source: string,
  type: EventType,
  at: Date,
  param: (value: unknown) => string,
): string {
  return `, ${name} AS (
    ${invoiceEventInsertSql({ id: param(newId('event')), type: param(type), createdAt: `${param(at)}::timestamptz`, from: source, returning: 'snapshot' })})`;
}

/**
 * Records `type` for one or many invoices inside a Prisma interactive transaction, in one statement (the chain
 * watcher settles a block range at a time), in the order given, each with the invoice's row as this
 * transaction sees it (call it after the change). Returns the ids of the events written (invoices that do not exist get none).
 */
export async function recordInvoiceEvents(
  tx: Prisma.TransactionClient,
  invoiceIds: readonly string[],
  type: EventType,
  at: Date = new Date(),
): Promise<string[]> {
  if (invoiceIds.length === 0) return [];
  // The unnest columns are named so that none shadows an invoices column INVOICE_SNAPSHOT_SQL reads unqualified.
  const rows = await tx.$queryRawUnsafe<Array<{ id: string }>>(
    invoiceEventInsertSql({
      id: 'e.event_id',
      type: '$3',
      createdAt: '$4::timestamptz',
      from: `unnest($1::text[], $2::text[]) WITH ORDINALITY AS e(event_id, event_invoice_id, event_order)
       JOIN invoices ON invoices.id = e.event_invoice_id`,
      orderBy: 'e.event_order',
      returning: 'id',
    }),
    invoiceIds.map(() => newId('event')),
    [...invoiceIds],
    type,
    at,
  );
  return rows.map((row) => row.id);
}

/**
 * An event about an invoice: tenant and snapshot come from the invoice row that `from` exposes (its columns
 * unqualified), so the event shows the invoice as the statement or transaction leaves it.
 */
export function invoiceEventInsertSql(event: Omit<EventInsert, 'workspaceId' | 'environment' | 'snapshot'>): string {
  return eventInsertSql({
    ...event,
    workspaceId: 'workspace_id',
    environment: 'environment',
    snapshot: `${INVOICE_SNAPSHOT_SQL}::jsonb`,
  });
}
