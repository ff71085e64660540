import type { Prisma } from '../db';
import { recordAudit } from './audit';

/**
 * A portal sign-in, recorded in the audit log of every workspace the user belongs to (a sign-in gives access
 * to all of them). Called with the transaction that creates the session row (lib/auth/sessions.ts).
 */
export async function recordSignIn(tx: Prisma.TransactionClient, user: { id: string; email: string | null; ip: string | null }): Promise<void> {
  const memberships = await tx.membership.findMany({ where: { userId: user.id }, select: { workspaceId: true } });
  for (const { workspaceId } of memberships) {
    await recordAudit(tx, {
      workspaceId,
      action: 'user.signed_in',
      actor: { userId: user.id, label: user.email ?? user.id, ip: user.ip },
      target: `user ${user.id}`,
    });
  }
}
