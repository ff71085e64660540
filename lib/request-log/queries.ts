import { db, type Prisma } from '../db';
import type { KeyEnvironment } from '../keys/api-key-secret';
import { REQUEST_LOG_RETENTION_DAYS, type RequestLogFields } from './types';

/** Filters of the portal's request log page (docs/api.md: key, status class, path). */
export interface RequestLogFilter {
  environment: KeyEnvironment;
  keyId?: number | null;
  statusClass?: '2xx' | '4xx' | '5xx' | null;
  /** Requests whose path starts with this (e.g. "/v1/invoices"). */
  path?: string | null;
  /** Cursor: entries older than this id. */
  before?: string | null;
  limit?: number;
}

export interface RequestLogRow extends RequestLogFields {
  id: string;
  createdAt: Date;
}

const RETENTION_MS = REQUEST_LOG_RETENTION_DAYS * 24 * 60 * 60 * 1000;
const STATUS_RANGES = { '2xx': [200, 300], '4xx': [400, 500], '5xx': [500, 600] } as const;

function toRow(row: Prisma.RequestLogGetPayload<object>): RequestLogRow {
  return {
    id: row.id.toString(),
    keyId: row.keyId,
    keyPrefix: row.keyPrefix,
    environment: row.environment,
    method: row.method,
    path: row.path,
    status: row.status,
    durationMs: row.durationMs,
    requestId: row.requestId,
    idempotencyKey: row.idempotencyKey,
    ip: row.ip,
    createdAt: row.createdAt,
  };
}

/** The workspace's requests of the last 7 days, newest first, one page (`limit` + whether there is more). */
export async function listRequests(
  workspaceId: string,
  filter: RequestLogFilter,
): Promise<{ rows: RequestLogRow[]; hasMore: boolean }> {
  const limit = Math.min(Math.max(filter.limit ?? 50, 1), 200);
  const range = filter.statusClass ? STATUS_RANGES[filter.statusClass] : null;
  const before = filter.before && /^\d{1,19}$/.test(filter.before) ? BigInt(filter.before) : null;
  const rows = await db().requestLog.findMany({
    where: {
      workspaceId,
      environment: filter.environment,
      createdAt: { gte: new Date(Date.now() - RETENTION_MS) },
      ...(filter.keyId ? { keyId: filter.keyId } : {}),
      ...(range ? { status: { gte: range[0], lt: range[1] } } : {}),
      ...(filter.path ? { path: { startsWith: filter.path } } : {}),
      ...(before !== null ? { id: { lt: before } } : {}),
    },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    take: limit + 1,
  });
  return { rows: rows.slice(0, limit).map(toRow), hasMore: rows.length > limit };
}

/** One request by its request id, only within the workspace (another workspace's id reads as not found). */
export async function getRequest(workspaceId: string, requestId: string): Promise<RequestLogRow | null> {
  const row = await db().requestLog.findFirst({
    where: { workspaceId, requestId, createdAt: { gte: new Date(Date.now() - RETENTION_MS) } },
  });
  return row ? toRow(row) : null;
}
