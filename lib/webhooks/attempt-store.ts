import { durableSql, runStatement } from '../db';
import type { EventRow } from '../events/store';
import type { EventType } from '../events/types';
import type { KeyEnvironment } from '../keys/api-key-secret';

/**
 * The statements of one delivery attempt on its common path: one read of the delivery with its endpoint and
 * event, and — when the receiver answered 2xx — one statement recording the success. They run on the
 * pipelining client (lib/db.ts durableSql), so a worker with 32 attempts in flight shares a few connections and
 * round trips instead of paying a Prisma query (or transaction) per step. Failures, rarer and with more rules,
 * are recorded by deliver.ts in a transaction.
 */

export interface AttemptEndpoint {
  id: string;
  url: string;
  status: 'enabled' | 'disabled';
  secretCiphertext: string;
  previousSecretCiphertext: string | null;
  previousSecretExpiresAt: Date | null;
  failingSince: Date | null;
}

export interface AttemptContext {
  id: string;
  status: 'pending' | 'succeeded' | 'failed';
  attempts: number;
  endpoint: AttemptEndpoint;
  event: EventRow;
}

interface AttemptSqlRow {
  id: string;
  status: AttemptContext['status'];
  attempts: number;
  endpoint_id: string;
  url: string;
  endpoint_status: AttemptEndpoint['status'];
  secret_ciphertext: string;
  previous_secret_ciphertext: string | null;
  previous_secret_expires_at: Date | null;
  failing_since: Date | null;
  event_id: string;
  workspace_id: string;
  environment: KeyEnvironment;
  type: EventType;
  snapshot: unknown;
  created_at: Date;
}

const SELECT_ATTEMPT = `
  SELECT d.id, d.status, d.attempts,
         e.id AS endpoint_id, e.url, e.status AS endpoint_status, e.secret_ciphertext, e.previous_secret_ciphertext,
         e.previous_secret_expires_at, e.failing_since,
         ev.id AS event_id, ev.workspace_id, ev.environment, ev.type, ev.snapshot, ev.created_at
    FROM webhook_deliveries d
    JOIN webhook_endpoints e ON e.id = d.endpoint_id
    JOIN events ev ON ev.id = d.event_id
   WHERE d.id = $1`;

export async function loadAttempt(deliveryId: string): Promise<AttemptContext | null> {
  const [row] = await runStatement<AttemptSqlRow>(durableSql(), SELECT_ATTEMPT, [deliveryId]);
  if (!row) return null;
  return {
    id: row.id,
    status: row.status,
    attempts: row.attempts,
    endpoint: {
      id: row.endpoint_id,
      url: row.url,
      status: row.endpoint_status,
      secretCiphertext: row.secret_ciphertext,
      previousSecretCiphertext: row.previous_secret_ciphertext,
      previousSecretExpiresAt: row.previous_secret_expires_at,
      failingSince: row.failing_since,
    },
    event: {
      id: row.event_id,
      workspaceId: row.workspace_id,
      environment: row.environment,
      type: row.type,
      snapshot: row.snapshot,
      createdAt: row.created_at,
    },
  };
}

export interface AttemptRecord {
  attempts: number;
  lastStatusCode: number | null;
  lastDurationMs: number;
  lastResponseBody: string;
  lastError: string | null;
  lastAttemptAt: Date;
}

/** Records a 2xx attempt and, in the same statement, ends the endpoint's run of failures if it had one. */
export async function recordSuccess(deliveryId: string, record: AttemptRecord): Promise<void> {
  await runStatement(
    durableSql(),
    `WITH recorded AS (
       UPDATE webhook_deliveries
          SET status = 'succeeded', attempts = $2, last_status_code = $3, last_duration_ms = $4, last_response_body = $5,
              last_error = $6, last_attempt_at = $7, next_attempt_at = NULL
        WHERE id = $1
    RETURNING endpoint_id)
     UPDATE webhook_endpoints SET failing_since = NULL
      WHERE id IN (SELECT endpoint_id FROM recorded) AND failing_since IS NOT NULL`,
    [
      deliveryId,
      record.attempts,
      record.lastStatusCode,
      record.lastDurationMs,
      record.lastResponseBody,
      record.lastError,
      record.lastAttemptAt,
    ],
  );
}
