import { createHash } from 'node:crypto';
import { db } from '../db';
import { AppError } from '../errors';
import type { Tenant } from '../tenant';

/**
 * Idempotency-Key for POST requests, with PostgreSQL as the source of truth so it holds across instances.
 *
 * The first request claims (workspace, environment, key) with an upsert; it stores its response when it
 * finishes (2xx and 4xx; a 5xx releases the claim so the client can retry). A later request with the same
 * key and the same fingerprint replays the stored response; a different fingerprint is 422. A request that
 * finds the claim still in flight waits briefly for it (most first requests finish in milliseconds), then
 * answers 409. Records live 24 h; a claim in flight for longer than STALE_CLAIM_SECONDS is considered
 * abandoned (its instance died) and may be taken over.
 */
export const IDEMPOTENCY_KEY_MAX_LENGTH = 255;
const RETENTION_HOURS = 24;
const STALE_CLAIM_SECONDS = 60;
const IN_FLIGHT_WAIT_MS = 5000;
const POLL_MS = 20;
const PRUNE_PROBABILITY = 0.01;

/** An idempotency key, which is unique within its tenant. */
export interface TenantIdempotencyKey extends Tenant {
  key: string;
}

export interface StoredResponse {
  status: number;
  body: string;
}

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
  return createHash('sha256').update(`${method} ${path}\n${canonicalJson(body ?? null)}`).digest('hex');
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** Claims the key; returns the claim's created_at (which identifies it) or null when another request holds the key. */
async function claim(scope: TenantIdempotencyKey, fingerprint: string): Promise<Date | null> {
  const rows = await db().$queryRaw<{ created_at: Date }[]>`
    INSERT INTO idempotency_records AS r (workspace_id, environment, key, request_hash, created_at)
    VALUES (${scope.workspaceId}, ${scope.environment}::"Environment", ${scope.key}, ${fingerprint}, now())
    ON CONFLICT (workspace_id, environment, key) DO UPDATE
      SET request_hash = EXCLUDED.request_hash, response_status = NULL, response_body = NULL, created_at = now()
      WHERE r.created_at < now() - make_interval(hours => ${RETENTION_HOURS})
         OR (r.response_status IS NULL AND r.created_at < now() - make_interval(secs => ${STALE_CLAIM_SECONDS}))
    RETURNING r.created_at`;
  return rows[0]?.created_at ?? null;
}

async function existing(scope: TenantIdempotencyKey) {
  return db().idempotencyRecord.findUnique({
    where: { workspaceId_environment_key: { workspaceId: scope.workspaceId, environment: scope.environment, key: scope.key } },
    select: { requestHash: true, responseStatus: true, responseBody: true },
  });
}

export type IdempotentOutcome = { replayed: false; response: StoredResponse } | { replayed: true; response: StoredResponse };

/**
 * Runs `execute` at most once per idempotency key. `execute` returns the response to store; if it throws,
 * the claim is released and the error propagates (5xx are never stored).
 */
export async function runIdempotently(
  scope: TenantIdempotencyKey,
  fingerprint: string,
  execute: () => Promise<StoredResponse>,
): Promise<IdempotentOutcome> {
  const deadline = Date.now() + IN_FLIGHT_WAIT_MS;
  let claimedAt: Date | null;
  for (;;) {
    claimedAt = await claim(scope, fingerprint);
    if (claimedAt) break;
    const record = await existing(scope);
    if (!record) continue; // released or pruned between our two reads: try to claim again
    if (record.requestHash !== fingerprint) {
      throw new AppError(
        'idempotency_key_reused',
        'This Idempotency-Key was already used with a different request. Use a new key for a new request',
      );
    }
    if (record.responseStatus !== null && record.responseBody !== null) {
      return { replayed: true, response: { status: record.responseStatus, body: record.responseBody } };
    }
    if (Date.now() >= deadline) {
      throw new AppError('idempotency_key_in_use', 'A request with this Idempotency-Key is still being processed. Retry shortly');
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  if (Math.random() < PRUNE_PROBABILITY) void pruneIdempotencyRecords().catch(() => undefined);

  // Only our own claim is released or completed (same created_at, still in flight): should this request
  // outlive STALE_CLAIM_SECONDS and another take the claim over, the other request's record is left alone.
  const ours = { workspaceId: scope.workspaceId, environment: scope.environment, key: scope.key, createdAt: claimedAt, responseStatus: null };
  const release = () => db().idempotencyRecord.deleteMany({ where: ours }).catch(() => undefined);
  let response: StoredResponse;
  try {
    response = await execute();
  } catch (error) {
    await release();
    throw error;
  }
  if (response.status >= 500) {
    await release();
  } else {
    await db().idempotencyRecord.updateMany({ where: ours, data: { responseStatus: response.status, responseBody: response.body } });
  }
  return { replayed: false, response };
}

/** Deletes records past retention; called opportunistically so the table stays small without a scheduler. */
export async function pruneIdempotencyRecords(): Promise<number> {
  const { count } = await db().idempotencyRecord.deleteMany({
    where: { createdAt: { lt: new Date(Date.now() - RETENTION_HOURS * 3600 * 1000) } },
  });
  return count;
}
