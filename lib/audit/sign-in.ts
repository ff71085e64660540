import type { Prisma } from '../db';
import type { AuditAction } from './actions';
import { recordAudit, type AuditActor, type AuditEntry } from './audit';

/**
 * An event of a user rather than of one workspace (a sign-in, a step-up, two-factor turned on or off), recorded
 * in the audit log of every workspace the user belongs to: each workspace's owner sees who could act on it.
 */
export async function recordUserAudit(
  tx: Prisma.TransactionClient,
  userId: string,
  entry: { action: AuditAction; actor: AuditActor; details?: AuditEntry['details'] },
): Promise<void> {
  const memberships = await tx.membership.findMany({ where: { userId }, select: { workspaceId: true } });
  for (const { workspaceId } of memberships) {
    await recordAudit(tx, {
      workspaceId,
      action: entry.action,
      actor: entry.actor,
      target: `user ${userId}`,
      details: entry.details,
    });
  }
}

/**
 * A portal sign-in, recorded in the audit log of every workspace the user belongs to (a sign-in gives access
 * to all of them). Called with the transaction that creates the session row (lib/auth/sessions.ts).
 */
export async function recordSignIn(
  tx: Prisma.TransactionClient,
  user: { id: string; email: string | null; ip: string | null; secondFactor?: 'totp' | 'recovery_code' | null },
): Promise<void> {
  await recordUserAudit(tx, user.id, {
    action: 'user.signed_in',
    actor: { userId: user.id, label: user.email ?? user.id, ip: user.ip },
    details: user.secondFactor ? { second_factor: user.secondFactor } : undefined,
  });
}
