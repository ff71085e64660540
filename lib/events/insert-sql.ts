/**
 * The one INSERT into events. Every writer builds its statement here, as a data-modifying CTE of the statement
 * that makes the change or inside the transaction that makes it (docs/webhooks.md), so the event commits with the
 * change or not at all; inserting it fires the fan-out trigger, which queues its deliveries in that transaction.
 * Each field is an SQL expression over `from` (a parameter, a column, or a cast of one).
 */
export interface EventInsert {
  id: string;
  workspaceId: string;
  environment: string;
  type: string;
  /** jsonb */
  snapshot: string;
  createdAt: string;
  /** Sends the event to that endpoint only (test events). */
  targetEndpointId?: string;
  from: string;
  orderBy?: string;
  returning?: string;
}

export function eventInsertSql(event: EventInsert): string {
  const columns: Array<[string, string]> = [
    ['id', event.id],
    ['workspace_id', event.workspaceId],
    ['environment', event.environment],
    ['type', event.type],
    ['snapshot', event.snapshot],
    ['created_at', event.createdAt],
  ];
  if (event.targetEndpointId !== undefined) columns.push(['target_endpoint_id', event.targetEndpointId]);
  return [
    `INSERT INTO events (${columns.map(([column]) => column).join(', ')})`,
    `SELECT ${columns.map(([, value]) => value).join(', ')}`,
    `FROM ${event.from}`,
    ...(event.orderBy ? [`ORDER BY ${event.orderBy}`] : []),
    ...(event.returning ? [`RETURNING ${event.returning}`] : []),
  ].join('\n');
}
