import { createHash } from 'node:crypto';
import { db, durableSql, runStatement } from '../db';
import { isDatabaseUnavailable } from '../db-unavailable';
import { AppError } from '../errors';
import { isIdempotencyConflict, type IdempotencyClaim } from '../idempotency/record';
import type { Tenant } from '../tenant';

/**
 * Idempotency-Key for POST requests, with PostgreSQL as the source of truth so it holds across instances
 * (docs/api.md, Idempotency).
 *
 * A request first looks its key up: a stored response is replayed (a different fingerprint is 422). Otherwise
 * the operation runs with an IdempotencyClaim, and the statement that takes effect writes the key's record with
 * the effect, in the same transaction (lib/idempotency/record.ts). So a crash of the instance, the connection or
 * the database leaves either the effect and its record (a retry replays) or neither (a retry runs it for the
 * first time). Two requests with the same key race in PostgreSQL: the second's statement waits for the first's
 * transaction and fails on the key if it committed (its effect rolled back with it), then replays the first.
 * No claim outlives the connection that holds it, so nothing is ever "in flight" for a dead request.
 *
 * A refusal (4xx) has no effect to commit with: it is stored afterwards unless a record exists by then (a
 * concurrent request took effect first, and that one is replayed). 5xx are never stored.
 */
export const IDEMPOTENCY_KEY_MAX_LENGTH = 255;
const RETENTION_HOURS = 24;
const PRUNE_PROBABILITY = 0.01;

/** An idempotency key, which is unique within its tenant. */
export interface TenantIdempotencyKey extends Tenant {
  key: string;
}

export interface StoredResponse {
  status: number;
  body: string;
}

/** Renders a stored row (an operation's effect) as the body it answered with, as of the request's time. */
export type RenderStored = (snapshot: unknown, at: Date) => unknown;

/** Reads and checks the header; null when the request has none. */
export function readIdempotencyKey(headers: Headers): string | null {
  const value = headers.get('idempotency-key');
  if (value === null) return null;
  if (value.length === 0 || value.length > IDEMPOTENCY_KEY_MAX_LENGTH || !/^[\x21-\x7e]+$/.test(value)) {
    const message = `Idempotency-Key must be 1–${IDEMPOTENCY_KEY_MAX_LENGTH} visible ASCII characters`;
    throw new AppError('validation_failed', message, { errors: [{ path: 'Idempotency-Key', message }] });
  }
  return value;
}

/** What makes two requests "the same": method, path and the parsed body (formatting and key order do not matter). */
export function requestFingerprint(method: string, path: string, body: unknown): string {
  return createHash('sha256')
    .update(`${method} ${path}\n${canonicalJson(body ?? null)}`)
    .digest('hex');
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

interface RecordRow {
  request_hash: string;
  response_status: number;
  response_body: string | null;
  response_snapshot: unknown;
  response_at: Date | null;
}

/**
 * The key's stored response, if any. Records past retention, and claims without a response left by an older
 * version of this code, are deleted in the same statement so that the operation's INSERT of the record can
 * succeed. Uncommitted records of requests in progress are invisible here and untouched.
 */
async function lookUp(tenantKey: TenantIdempotencyKey): Promise<RecordRow | null> {
  const rows = await runStatement<RecordRow>(
    durableSql(),
    `WITH expired AS (
        DELETE FROM idempotency_records
         WHERE workspace_id = $1 AND environment = $2::"Environment" AND key = $3
           AND (created_at <= now() - make_interval(hours => $4::int) OR response_status IS NULL))
      SELECT request_hash, response_status, response_body, response_snapshot, response_at FROM idempotency_records
       WHERE workspace_id = $1 AND environment = $2::"Environment" AND key = $3
         AND created_at > now() - make_interval(hours => $4::int) AND response_status IS NOT NULL`,
    [tenantKey.workspaceId, tenantKey.environment, tenantKey.key, RETENTION_HOURS],
  );
  return rows[0] ?? null;
}

/** Stores a response that had no effect to commit with (a refusal); false when a record exists already (kept as it is). */
async function storeWithoutEffect(
  tenantKey: TenantIdempotencyKey,
  fingerprint: string,
  response: StoredResponse,
): Promise<boolean> {
  const rows = await runStatement(
    durableSql(),
    `INSERT INTO idempotency_records (workspace_id, environment, key, request_hash, response_status, response_body, created_at)
     VALUES ($1, $2::"Environment", $3, $4, $5::int, $6, now())
     ON CONFLICT (workspace_id, environment, key) DO NOTHING
     RETURNING 1`,
    [tenantKey.workspaceId, tenantKey.environment, tenantKey.key, fingerprint, response.status, response.body],
  );
  return rows.length > 0;
}

function replay(record: RecordRow, fingerprint: string, render: RenderStored | undefined): IdempotentOutcome {
  if (record.request_hash !== fingerprint) {
    throw new AppError(
      'idempotency_key_reused',
      'This Idempotency-Key was already used with a different request. Use a new key for a new request',
    );
  }
  let body = record.response_body;
  if (record.response_snapshot !== null && record.response_at !== null && render) {
    body = JSON.stringify(render(record.response_snapshot, new Date(record.response_at)));
  }
  if (body === null) throw new Error('stored idempotency record without a body or a renderable snapshot');
  return { replayed: true, response: { status: record.response_status, body } };
}

export type IdempotentOutcome =
  { replayed: false; response: StoredResponse } | { replayed: true; response: StoredResponse };

/** A few rounds at most: each one means another request with this key committed or rolled back meanwhile. */
const MAX_ROUNDS = 5;
/**
 * A statement on a pooled connection the server already closed (a restart, a terminated backend) fails without
 * an answer. Running the round again is safe here — an effect that did commit committed its record, and the
 * look-up replays it — so a request with a key gets a fresh connection before it gets a 503.
 */
const UNAVAILABLE_RETRIES = 2;
const UNAVAILABLE_PAUSE_MS = 50;

/**
 * Runs `execute` at most once per idempotency key. `execute` gets the claim to hand to the statement that takes
 * effect and returns the response; if it throws, nothing is stored and the error propagates (5xx are never stored).
 */
export async function runIdempotently(
  tenantKey: TenantIdempotencyKey,
  fingerprint: string,
  options: { status: number; at: Date; render?: RenderStored },
  execute: (claim: IdempotencyClaim) => Promise<StoredResponse>,
): Promise<IdempotentOutcome> {
  let unavailable = 0;
  const retryUnavailable = async (error: unknown) => {
    if (!isDatabaseUnavailable(error) || unavailable++ >= UNAVAILABLE_RETRIES) throw error;
    await new Promise((resolve) => setTimeout(resolve, UNAVAILABLE_PAUSE_MS));
  };
  for (let round = 1; ; round++) {
    let record: RecordRow | null;
    try {
      record = await lookUp(tenantKey);
    } catch (error) {
      await retryUnavailable(error);
      continue;
    }
    if (record) return replay(record, fingerprint, options.render);
    if (Math.random() < PRUNE_PROBABILITY) void pruneIdempotencyRecords().catch(() => undefined);

    const claim: IdempotencyClaim = {
      ...tenantKey,
      fingerprint,
      status: options.status,
      at: options.at,
      recorded: false,
    };
    let response: StoredResponse;
    try {
      response = await execute(claim);
    } catch (error) {
      // Another request with this key took effect first: ours was rolled back; replay theirs.
      if (isIdempotencyConflict(error) && round < MAX_ROUNDS) continue;
      await retryUnavailable(error);
      continue;
    }
    if (claim.recorded || response.status >= 500) return { replayed: false, response };
    if (await storeWithoutEffect(tenantKey, fingerprint, response)) return { replayed: false, response };
    // A record appeared meanwhile (a concurrent request with this key took effect or stored its refusal).
    if (round >= MAX_ROUNDS)
      throw new AppError('idempotency_key_in_use', 'Requests with this Idempotency-Key keep racing. Retry shortly');
  }
}

/** Deletes records past retention; called opportunistically so the table stays small without a scheduler. */
export async function pruneIdempotencyRecords(): Promise<number> {
  const { count } = await db().idempotencyRecord.deleteMany({
    where: { createdAt: { lt: new Date(Date.now() - RETENTION_HOURS * 3600 * 1000) } },
  });
  return count;
}
