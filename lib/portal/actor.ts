import { headers } from 'next/headers';
import type { AuditActor } from '../audit/audit';
import { clientAddress } from '../http/client-address';
import type { PortalContext } from './context';

/**
 * The audit log's "who" for a portal server action: the signed-in user, the client's address, and the session
 * acting — changes that need a step-up (lib/auth/step-up.ts) check that session's proof.
 */
export async function portalActor(
  ctx: Pick<PortalContext, 'userId' | 'email' | 'sessionId'>,
): Promise<AuditActor & { userId: string; sessionId: string }> {
  const forwardedFor = (await headers()).get('x-forwarded-for');
  return { userId: ctx.userId, label: ctx.email, ip: clientAddress(forwardedFor), sessionId: ctx.sessionId };
}
