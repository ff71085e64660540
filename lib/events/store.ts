import { meteringSql, runStatement, type Prisma } from '../db';
import { newId } from '../ids';
import { eventInsertSql } from './insert-sql';
import type { KeyEnvironment } from '../keys/api-key-secret';
import type { Tenant } from '../tenant';
import type { EventType } from './types';

/**
 * Writing and reading events. An event is always written by the statement or transaction that makes the
 * change it reports (docs/webhooks.md): either as a data-modifying CTE of that statement (invoiceEventCte, used by the
 * invoice statements on the API's hot path) or inside a Prisma interactive transaction (recordInvoiceEvents,
 * recordEvent, recordEvents). Inserting it fires the fan-out trigger, which queues its webhook deliveries in the same
 * transaction.
 */

export interface EventRow extends Tenant {
  id: string;
  type: EventType;
  snapshot: unknown;
  createdAt: Date;
}

/** Records an event whose object is not an invoice (`snapshot` is the resource exactly as the API shows it). */
export async function recordEvent(tx: Prisma.TransactionClient, event: NewEvent): Promise<string> {
  return (await recordEvents(tx, [event]))[0]!;
}

/** An event whose object is not an invoice; `targetEndpointId` sends it to that endpoint only (test events). */
export interface NewEvent extends Tenant {
  type: EventType;
  snapshot: object;
  targetEndpointId?: string;
  at?: Date;
}

/** Records many events whose objects are not invoices, in one statement, in the order given; returns their ids. */
export async function recordEvents(tx: Prisma.TransactionClient, events: readonly NewEvent[]): Promise<string[]> {
  if (events.length === 0) return [];
  const ids = events.map(() => newId('event'));
  await tx.$executeRawUnsafe(
    eventInsertSql({
      id: 'e.id',
      workspaceId: 'e.workspace_id',
      environment: 'e.environment::"Environment"',
      type: 'e.type',
      snapshot: 'e.snapshot::jsonb',
      createdAt: 'e.created_at',
      targetEndpointId: 'e.target_endpoint_id',
      from: `unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::timestamptz[])
            WITH ORDINALITY AS e(id, workspace_id, environment, type, snapshot, target_endpoint_id, created_at, n)`,
      orderBy: 'e.n',
    }),
    ids,
    events.map((event) => event.workspaceId),
    events.map((event) => event.environment),
    events.map((event) => event.type),
    events.map((event) => JSON.stringify(event.snapshot)),
    events.map((event) => event.targetEndpointId ?? null),
    events.map((event) => (event.at ?? new Date()).toISOString()),
  );
  return ids;
}

interface EventSqlRow {
  id: string;
  workspace_id: string;
  environment: KeyEnvironment;
  type: EventType;
  snapshot: unknown;
  created_at: Date;
}

const EVENT_COLUMNS = 'id, workspace_id, environment, type, snapshot, created_at';

function toRow(row: EventSqlRow): EventRow {
  return {
    id: row.id,
    workspaceId: row.workspace_id,
    environment: row.environment,
    type: row.type,
    snapshot: row.snapshot,
    createdAt: new Date(row.created_at),
  };
}

export async function selectEvent(tenant: Tenant, id: string): Promise<EventRow | null> {
  const rows = await runStatement<EventSqlRow>(
    meteringSql(),
    `SELECT ${EVENT_COLUMNS} FROM events WHERE id = $1 AND workspace_id = $2 AND environment = $3::"Environment"`,
    [id, tenant.workspaceId, tenant.environment],
  );
  return rows[0] ? toRow(rows[0]) : null;
}

/** Newest first, keyset on `seq`; the cursor is resolved inside the statement and scoped like the page. */
export async function selectEventPage(
  tenant: Tenant,
  query: { type: EventType | null; cursor: string | null; take: number },
): Promise<{ rows: EventRow[]; cursorFound: boolean }> {
  const values: unknown[] = [tenant.workspaceId, tenant.environment];
  const param = (value: unknown) => `$${values.push(value)}`;
  const conditions = ['workspace_id = $1', 'environment = $2::"Environment"'];
  if (query.type) conditions.push(`type = ${param(query.type)}`);
  if (query.cursor) {
    conditions.push(
      `seq < (SELECT c.seq FROM events c WHERE c.id = ${param(query.cursor)} AND c.workspace_id = $1 AND c.environment = $2::"Environment")`,
    );
  }
  const rows = await runStatement<EventSqlRow>(
    meteringSql(),
    `SELECT ${EVENT_COLUMNS} FROM events WHERE ${conditions.join(' AND ')} ORDER BY seq DESC LIMIT ${Math.floor(query.take)}`,
    values,
  );
  if (rows.length > 0 || !query.cursor) return { rows: rows.map(toRow), cursorFound: true };
  return { rows: [], cursorFound: (await selectEvent(tenant, query.cursor)) !== null };
}
