import { recordAudit, SYSTEM, type AuditActor } from '../audit/audit';
import { db, TRANSACTION_OPTIONS } from '../db';
import { AppError } from '../errors';
import { recordEvent } from '../events/store';
import type { EventType } from '../events/types';
import { newId } from '../ids';
import type { KeyEnvironment } from '../keys/api-key-secret';
import { CreateWebhookEndpointInput, UpdateWebhookEndpointInput, WEBHOOK_ENDPOINT_ID_PATTERN } from './schemas';
import { requireStepUp, stepUpDetail } from '../auth/step-up';
import { openSecret, sealSecret } from '../crypto/secret-box';
import { newSigningSecret } from './signing';
import { checkEndpointUrl } from './url-policy';

/**
 * Webhook endpoints of a workspace: managed in the portal and the admin CLI (never through the API). Every
 * function takes the workspace id from the caller's verified session or the operator, and every query is
 * scoped by it: an id from another workspace is "not found". Every change is written to the audit log in its
 * own transaction (`actor`: who did it).
 */

/** After a roll, the old secret keeps signing (beside the new one) this long. */
export const PREVIOUS_SECRET_VALID_MS = 24 * 3600 * 1000;

export interface WebhookEndpointView {
  id: string;
  url: string;
  description: string;
  environment: KeyEnvironment;
  eventTypes: EventType[];
  status: 'enabled' | 'disabled';
  disabledReason: string | null;
  /** While an old secret still signs after a roll. */
  previousSecretExpiresAt: Date | null;
  createdAt: Date;
}

const VIEW_SELECT = {
  id: true,
  url: true,
  description: true,
  environment: true,
  eventTypes: true,
  status: true,
  disabledReason: true,
  previousSecretExpiresAt: true,
  createdAt: true,
} as const;

type ViewRow = { [K in keyof typeof VIEW_SELECT]: unknown } & {
  eventTypes: string[];
  previousSecretExpiresAt: Date | null;
};

function toView(row: ViewRow, now = new Date()): WebhookEndpointView {
  const view = row as unknown as WebhookEndpointView;
  return {
    ...view,
    previousSecretExpiresAt:
      row.previousSecretExpiresAt && row.previousSecretExpiresAt > now ? row.previousSecretExpiresAt : null,
  };
}

function notFound(): never {
  throw new AppError('webhook_endpoint_not_found', 'No webhook endpoint with this id exists in this workspace');
}

function checkedId(id: string): string {
  return WEBHOOK_ENDPOINT_ID_PATTERN.test(id) ? id : notFound();
}

/** Creates an endpoint; the secret is returned here only, never again. */
export async function createWebhookEndpoint(
  workspaceId: string,
  input: CreateWebhookEndpointInput,
  options: { allowPrivateNetworks?: boolean; actor?: AuditActor } = {},
): Promise<{ endpoint: WebhookEndpointView; secret: string }> {
  const parsed = CreateWebhookEndpointInput.parse(input);
  const url = await checkEndpointUrl(parsed.url, parsed.environment, options.allowPrivateNetworks);
  const secret = newSigningSecret();
  const actor = options.actor ?? SYSTEM;
  const row = await db().$transaction(async (tx) => {
    // A live endpoint receives every live payment event from now on, beyond the session that adds it: like a
    // live key, a portal user needs a step-up for one (lib/auth/step-up.ts); test endpoints do not.
    const proof = parsed.environment === 'live' ? await requireStepUp(tx, actor) : null;
    const created = await tx.webhookEndpoint.create({
      data: {
        id: newId('webhookEndpoint'),
        workspaceId,
        environment: parsed.environment,
        url,
        description: parsed.description,
        eventTypes: parsed.event_types,
        secretCiphertext: sealSecret(secret),
      },
      select: VIEW_SELECT,
    });
    await recordAudit(tx, {
      workspaceId,
      action: 'webhook_endpoint.created',
      actor,
      target: `webhook endpoint ${created.id}`,
      details: { url, environment: parsed.environment, event_types: parsed.event_types, ...stepUpDetail(proof) },
    });
    return created;
  }, TRANSACTION_OPTIONS);
  return { endpoint: toView(row), secret };
}

export async function listWebhookEndpoints(
  workspaceId: string,
  environment?: KeyEnvironment,
): Promise<WebhookEndpointView[]> {
  const rows = await db().webhookEndpoint.findMany({
    where: { workspaceId, ...(environment ? { environment } : {}) },
    orderBy: { createdAt: 'desc' },
    select: VIEW_SELECT,
  });
  return rows.map((row) => toView(row));
}

export async function getWebhookEndpoint(workspaceId: string, id: string): Promise<WebhookEndpointView> {
  const row = await db().webhookEndpoint.findFirst({ where: { id: checkedId(id), workspaceId }, select: VIEW_SELECT });
  return row ? toView(row) : notFound();
}

export async function updateWebhookEndpoint(
  workspaceId: string,
  id: string,
  input: UpdateWebhookEndpointInput,
  actor: AuditActor = SYSTEM,
): Promise<WebhookEndpointView> {
  const current = await getWebhookEndpoint(workspaceId, id);
  const parsed = UpdateWebhookEndpointInput.parse(input);
  const url = parsed.url === undefined ? undefined : await checkEndpointUrl(parsed.url, current.environment);
  await db().$transaction(async (tx) => {
    const { count } = await tx.webhookEndpoint.updateMany({
      where: { id: current.id, workspaceId },
      data: { url, description: parsed.description, eventTypes: parsed.event_types },
    });
    if (count === 0) notFound();
    await recordAudit(tx, {
      workspaceId,
      action: 'webhook_endpoint.changed',
      actor,
      target: `webhook endpoint ${current.id}`,
      details: {
        ...(url !== undefined ? { url } : {}),
        ...(parsed.event_types ? { event_types: parsed.event_types } : {}),
      },
    });
  }, TRANSACTION_OPTIONS);
  return getWebhookEndpoint(workspaceId, id);
}

/** A new secret, shown once; the previous one keeps signing for 24 h so receivers can switch without a gap. */
export async function rollWebhookSecret(
  workspaceId: string,
  id: string,
  actor: AuditActor = SYSTEM,
  now = new Date(),
): Promise<{ endpoint: WebhookEndpointView; secret: string }> {
  const secret = newSigningSecret();
  const updated = await db().$transaction(async (tx) => {
    const current = await tx.webhookEndpoint.findFirst({
      where: { id: checkedId(id), workspaceId },
      select: { secretCiphertext: true },
    });
    if (!current) return null;
    const rolled = await tx.webhookEndpoint.update({
      where: { id },
      data: {
        secretCiphertext: sealSecret(secret),
        previousSecretCiphertext: current.secretCiphertext,
        previousSecretExpiresAt: new Date(now.getTime() + PREVIOUS_SECRET_VALID_MS),
      },
      select: VIEW_SELECT,
    });
    await recordAudit(tx, {
      workspaceId,
      action: 'webhook_endpoint.secret_rolled',
      actor,
      target: `webhook endpoint ${id}`,
    });
    return rolled;
  }, TRANSACTION_OPTIONS);
  return updated ? { endpoint: toView(updated, now), secret } : notFound();
}

/** Enabling also forgets the failure streak that may have disabled it. */
export async function setWebhookEndpointEnabled(
  workspaceId: string,
  id: string,
  enabled: boolean,
  actor: AuditActor = SYSTEM,
): Promise<WebhookEndpointView> {
  await db().$transaction(async (tx) => {
    const { count } = await tx.webhookEndpoint.updateMany({
      where: { id: checkedId(id), workspaceId },
      data: enabled
        ? { status: 'enabled', disabledReason: null, failingSince: null }
        : { status: 'disabled', disabledReason: 'Disabled in the portal' },
    });
    if (count === 0) notFound();
    await recordAudit(tx, {
      workspaceId,
      action: 'webhook_endpoint.changed',
      actor,
      target: `webhook endpoint ${id}`,
      details: { status: enabled ? 'enabled' : 'disabled' },
    });
  }, TRANSACTION_OPTIONS);
  return getWebhookEndpoint(workspaceId, id);
}

/** Deletes the endpoint and its delivery log. */
export async function deleteWebhookEndpoint(
  workspaceId: string,
  id: string,
  actor: AuditActor = SYSTEM,
): Promise<void> {
  await db().$transaction(async (tx) => {
    const { count } = await tx.webhookEndpoint.deleteMany({ where: { id: checkedId(id), workspaceId } });
    if (count === 0) notFound();
    await recordAudit(tx, { workspaceId, action: 'webhook_endpoint.deleted', actor, target: `webhook endpoint ${id}` });
  }, TRANSACTION_OPTIONS);
}

/** Sends a `webhook_endpoint.test` event to this endpoint only (it is also listed by GET /v1/events). */
export async function sendTestEvent(workspaceId: string, id: string, now = new Date()): Promise<string> {
  const endpoint = await getWebhookEndpoint(workspaceId, id);
  return db().$transaction(
    (tx) =>
      recordEvent(tx, {
        workspaceId,
        environment: endpoint.environment,
        type: 'webhook_endpoint.test',
        snapshot: { id: endpoint.id, object: 'webhook_endpoint', url: endpoint.url, description: endpoint.description },
        targetEndpointId: endpoint.id,
        at: now,
      }),
    TRANSACTION_OPTIONS,
  );
}

/** The secrets that sign a delivery now: the current one, and the previous one during a roll. */
export function signingSecrets(
  row: { secretCiphertext: string; previousSecretCiphertext: string | null; previousSecretExpiresAt: Date | null },
  now: Date,
): string[] {
  const secrets = [openSecret(row.secretCiphertext)];
  if (row.previousSecretCiphertext && row.previousSecretExpiresAt && row.previousSecretExpiresAt > now) {
    secrets.push(openSecret(row.previousSecretCiphertext));
  }
  return secrets;
}
