import type { Tenant } from '../tenant';

/**
 * An Idempotency-Key request on its way to the operation's effect (docs/api.md, Idempotency). The statement
 * that takes effect also writes the key's record — status, the row it answers with and the request's time — so
 * the effect and its stored response commit together or not at all: a crash anywhere leaves either both (a retry
 * replays) or neither (a retry is the first execution). There is no "in flight" state to get stuck in.
 *
 * The record is a plain INSERT: when a concurrent request with the same key commits first, this statement fails
 * with a unique violation on idempotency_records_pkey and its effect is rolled back with it (the caller then
 * replays the winner's record). While the winner's statement is uncommitted, ours waits on its index entry: the
 * claim is held by a live transaction and disappears with its connection.
 */
export interface IdempotencyClaim extends Tenant {
  key: string;
  /** requestFingerprint of the request: method, path and parsed body. */
  fingerprint: string;
  /** What the operation answers when it takes effect (201 for a create, 200 for a transition). */
  status: number;
  /** The request's time: a replay renders the stored row as of it, as the first answer did. */
  at: Date;
  /** Set by the data access once the effect's statement returned its row: the record was written with it. */
  recorded: boolean;
}

export const IDEMPOTENCY_PRIMARY_KEY = 'idempotency_records_pkey';

/**
 * A CTE (`, <name> AS (…)`) storing `claim`'s record for the row of the CTE `source`, whose `snapshotColumn`
 * is the JSON the operation answers from. Writes nothing when `source` returned no row (no effect, no record).
 */
export function idempotencyRecordCte(
  name: string,
  claim: IdempotencyClaim,
  source: string,
  snapshotColumn: string,
  param: (value: unknown) => string,
): string {
  return `, ${name} AS (
    INSERT INTO idempotency_records (workspace_id, environment, key, request_hash, response_status, response_snapshot, response_at, created_at)
    SELECT ${param(claim.workspaceId)}, ${param(claim.environment)}::"Environment", ${param(claim.key)}, ${param(claim.fingerprint)},
      ${param(claim.status)}::int, ${snapshotColumn}, ${param(claim.at)}::timestamptz, now()
      FROM ${source}
    RETURNING 1)`;
}

/** True for the error of a statement refused because another request with the same key committed first. */
export function isIdempotencyConflict(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, constraint_name: constraint } = error as { code?: unknown; constraint_name?: unknown };
  return code === '23505' && constraint === IDEMPOTENCY_PRIMARY_KEY;
}
