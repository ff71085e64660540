'use server';

import { revalidatePath } from 'next/cache';
import { redirect } from 'next/navigation';
import { z } from 'zod';
import { withWorkspace } from '@/lib/portal/action';
import { resendDelivery } from '@/lib/webhooks/deliveries';
import {
  createWebhookEndpoint,
  deleteWebhookEndpoint,
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

function refresh(endpointId?: string) {
  revalidatePath('/webhooks');
  if (endpointId) revalidatePath(`/webhooks/${endpointId}`);
}

export const createEndpoint = withWorkspace(
  CreateWebhookEndpointInput,
  async (ctx, input) => {
    const { endpoint, secret } = await createWebhookEndpoint(ctx.workspace.id, input);
    refresh();
    return { endpoint: { id: endpoint.id, url: endpoint.url, environment: endpoint.environment }, secret };
  },
  { arrays: ['event_types'] },
);

export const rollSecret = withWorkspace(EndpointRef, async (ctx, input) => {
  const { endpoint, secret } = await rollWebhookSecret(ctx.workspace.id, input.endpointId);
  refresh(endpoint.id);
  return { endpoint: { id: endpoint.id, url: endpoint.url, previousSecretExpiresAt: endpoint.previousSecretExpiresAt?.toISOString() ?? null }, secret };
});

export const setEnabled = withWorkspace(
  EndpointRef.extend({ enabled: z.enum(['true', 'false']).transform((value) => value === 'true') }),
  async (ctx, input) => {
    const endpoint = await setWebhookEndpointEnabled(ctx.workspace.id, input.endpointId, input.enabled);
    refresh(endpoint.id);
    return { id: endpoint.id, status: endpoint.status };
  },
);

export const deleteEndpoint = withWorkspace(EndpointRef, async (ctx, input) => {
  await deleteWebhookEndpoint(ctx.workspace.id, input.endpointId);
  refresh(input.endpointId);
  redirect('/webhooks?deleted=1');
});

export const sendTest = withWorkspace(EndpointRef, async (ctx, input) => {
  const eventId = await sendTestEvent(ctx.workspace.id, input.endpointId);
  refresh(input.endpointId);
  return { eventId };
});

export const resend = withWorkspace(EndpointRef.extend(DeliveryRef.shape), async (ctx, input) => {
  await resendDelivery(ctx.workspace.id, input.deliveryId);
  refresh(input.endpointId);
  return { deliveryId: input.deliveryId };
});
