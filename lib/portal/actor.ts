import { headers } from 'next/headers';
import type { AuditActor } from '../audit/audit';
import { clientAddress } from '../http/client-address';
import type { PortalContext } from './context';

/** The audit log's "who" for a portal server action: the signed-in user and the client's address. */
export async function portalActor(ctx: Pick<PortalContext, 'userId' | 'email'>): Promise<AuditActor> {
  const forwardedFor = (await headers()).get('x-forwarded-for');
  return { userId: ctx.userId, label: ctx.email, ip: clientAddress(forwardedFor) };
}
