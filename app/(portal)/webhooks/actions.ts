'use server';

import { portalActor } from '@/lib/portal/actor';
import { revalidatePath } from 'next/cache';
import { redirect } from 'next/navigation';
import { z } from 'zod';
import { withWorkspace } from '@/lib/portal/action';
import { assertCan, type PortalContext } from '@/lib/portal/context';
import { forEnvironment } from '@/lib/teams/roles';
import { resendDelivery } from '@/lib/webhooks/deliveries';
import {
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  getWebhookEndpoint,
  rollWebhookSecret,
  sendTestEvent,
  setWebhookEndpointEnabled,
} from '@/lib/webhooks/endpoints';
import { CreateWebhookEndpointInput, WebhookEndpointId } from '@/lib/webhooks/schemas';

/**
 * Webhook endpoint management for the signed-in user's workspace. Every action goes through withWorkspace
 * (session + membership re-checked on the server); endpoint and delivery ids from the form are only data:
 * each lib function is scoped by the session's workspace, so another workspace's id is "not found".
 * Secrets are returned to the calling form only (portal responses are Cache-Control: no-store, next.config.js).
 */

const EndpointRef = z.object({ endpointId: WebhookEndpointId });
const DeliveryRef = z.object({ deliveryId: z.string().regex(/^whd_[0-9a-f]{32}$/, 'Unknown delivery') });

/** The least an endpoint action needs; a live endpoint then needs the live permission (requireEndpointPermission). */
const MANAGE = { permission: 'webhooks.manage_test' } as const;

/** An endpoint's environment never changes, so reading it before the change is enough: live ones need Owner/Admin. */
async function requireEndpointPermission(ctx: PortalContext, endpointId: string): Promise<void> {
  const endpoint = await getWebhookEndpoint(ctx.workspace.id, endpointId);
  assertCan(ctx, forEnvironment('webhooks', endpoint.environment));
}

function refresh(endpointId?: string) {
  revalidatePath('/webhooks');
  if (endpointId) revalidatePath(`/webhooks/${endpointId}`);
}

export const createEndpoint = withWorkspace(
  { permission: 'webhooks.manage_test', forInput: (input) => forEnvironment('webhooks', input.environment) },
  CreateWebhookEndpointInput,
  async (ctx, input) => {
    const { endpoint, secret } = await createWebhookEndpoint(ctx.workspace.id, input, {
      actor: await portalActor(ctx),
    });
    refresh();
    return { endpoint: { id: endpoint.id, url: endpoint.url, environment: endpoint.environment }, secret };
  },
  { arrays: ['event_types'] },
);

export const rollSecret = withWorkspace(MANAGE, EndpointRef, async (ctx, input) => {
  await requireEndpointPermission(ctx, input.endpointId);
  const { endpoint, secret } = await rollWebhookSecret(ctx.workspace.id, input.endpointId, await portalActor(ctx));
  refresh(endpoint.id);
  return {
    endpoint: {
      id: endpoint.id,
      url: endpoint.url,
      previousSecretExpiresAt: endpoint.previousSecretExpiresAt?.toISOString() ?? null,
    },
    secret,
  };
});

export const setEnabled = withWorkspace(
  MANAGE,
  EndpointRef.extend({ enabled: z.enum(['true', 'false']).transform((value) => value === 'true') }),
  async (ctx, input) => {
    await requireEndpointPermission(ctx, input.endpointId);
    const endpoint = await setWebhookEndpointEnabled(
      ctx.workspace.id,
      input.endpointId,
      input.enabled,
      await portalActor(ctx),
    );
    refresh(endpoint.id);
    return { id: endpoint.id, status: endpoint.status };
  },
);

export const deleteEndpoint = withWorkspace(MANAGE, EndpointRef, async (ctx, input) => {
  await requireEndpointPermission(ctx, input.endpointId);
  await deleteWebhookEndpoint(ctx.workspace.id, input.endpointId, await portalActor(ctx));
  refresh(input.endpointId);
  redirect('/webhooks?deleted=1');
});

export const sendTest = withWorkspace(MANAGE, EndpointRef, async (ctx, input) => {
  await requireEndpointPermission(ctx, input.endpointId);
  const eventId = await sendTestEvent(ctx.workspace.id, input.endpointId);
  refresh(input.endpointId);
  return { eventId };
});

export const resend = withWorkspace(MANAGE, EndpointRef.extend(DeliveryRef.shape), async (ctx, input) => {
  await requireEndpointPermission(ctx, input.endpointId);
  await resendDelivery(ctx.workspace.id, input.deliveryId);
  refresh(input.endpointId);
  return { deliveryId: input.deliveryId };
});
