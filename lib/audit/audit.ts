import { db, type Prisma } from '../db';
import type { AuditAction } from './actions';

/**
 * The audit log (docs/api.md): who changed what, when, from which address — per workspace, append-only.
 *
 * How to use it from any domain module: write the audit row with the SAME transaction client as the change,
 * so the change and its record commit (or roll back) together:
 *
 *   await db().$transaction(async (tx) => {
 *     const key = await tx.apiKey.update(…);
 *     await recordAudit(tx, { workspaceId, action: 'key.revoked', actor, target: `key ${key.id}`, details: { label: key.label } });
 *   });
 *
 * `actor` comes from the caller's surface: `portalActor()` (lib/portal/actor.ts) in a server action,
 * `OPERATOR` in the admin CLI, `SYSTEM` for the service itself. `details` is small JSON describing the change —
 * never a secret, a password or a request body. Nothing updates or deletes rows of this table.
 */
export interface AuditActor {
  /** The portal user, when a person did it. */
  userId: string | null;
  /** What the portal shows as "who": the user's email, "operator" (admin CLI) or "system". */
  label: string;
  /** The client address (lib/http/client-address.ts), when known. */
  ip: string | null;
  /**
   * The portal session acting (portalActor sets it). Not stored: changes that need a step-up
   * (lib/auth/step-up.ts) check this session's proof, and refuse a person's change made without one.
   */
  sessionId?: string | null;
}

export const OPERATOR: AuditActor = { userId: null, label: 'operator (admin CLI)', ip: null };
export const SYSTEM: AuditActor = { userId: null, label: 'system', ip: null };

export interface AuditEntry {
  workspaceId: string;
  action: AuditAction;
  actor: AuditActor;
  /** The object acted on, in words: "key 12", "network polygon". */
  target?: string | null;
  details?: Record<string, string | number | boolean | null | string[]>;
}

/** A Prisma client or an interactive transaction's client: only the audit table is needed. */
export type AuditWriter = Pick<Prisma.TransactionClient, 'auditLog'>;

export async function recordAudit(tx: AuditWriter, entry: AuditEntry): Promise<void> {
  await tx.auditLog.create({
    data: {
      workspaceId: entry.workspaceId,
      action: entry.action,
      actorUserId: entry.actor.userId,
      actorLabel: entry.actor.label.slice(0, 320),
      ip: entry.actor.ip,
      target: entry.target ?? null,
      details: entry.details ?? {},
    },
  });
}

export interface AuditRow {
  id: string;
  action: string;
  actorLabel: string;
  ip: string | null;
  target: string | null;
  details: unknown;
  createdAt: Date;
}

/** The workspace's audit log, newest first, `limit` rows before the cursor (an id). */
export async function listAudit(
  workspaceId: string,
  options: { limit?: number; before?: string | null } = {},
): Promise<AuditRow[]> {
  const limit = Math.min(Math.max(options.limit ?? 50, 1), 200);
  const before = options.before && /^\d{1,19}$/.test(options.before) ? BigInt(options.before) : null;
  const rows = await db().auditLog.findMany({
    where: { workspaceId, ...(before !== null ? { id: { lt: before } } : {}) },
    orderBy: { id: 'desc' },
    take: limit,
  });
  return rows.map((row) => ({
    id: row.id.toString(),
    action: row.action,
    actorLabel: row.actorLabel,
    ip: row.ip,
    target: row.target,
    details: row.details,
    createdAt: row.createdAt,
  }));
}
