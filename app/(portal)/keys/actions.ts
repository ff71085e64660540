'use server';

import { revalidatePath } from 'next/cache';
import { z } from 'zod';
import { AllowedIps } from '@/lib/keys/allowlist';
import { createApiKey, CreateKeyInput, revokeApiKey, ROLL_GRACE_CHOICES, rollApiKey } from '@/lib/keys/keys';
import { withWorkspace } from '@/lib/portal/action';
import { portalActor } from '@/lib/portal/actor';
import { assertCan } from '@/lib/portal/context';
import { forEnvironment } from '@/lib/teams/roles';

/** Expiry choices of the create form, in days ('' = never); the server turns the choice into expires_at. */
const EXPIRY_CHOICES = ['', '7', '30', '90', '365'] as const;

const PortalCreateKeyInput = CreateKeyInput.omit({ expiresAt: true, allowedIps: true }).extend({
  expiresInDays: z.enum(EXPIRY_CHOICES, { error: 'Choose an expiry' }).optional(),
  allowedIps: AllowedIps.optional(),
});

/**
 * Creates a key in the signed-in user's workspace. The secret is returned to the calling form only (the
 * response is Cache-Control: no-store, see next.config.js); it is not stored, logged or put in a URL.
 */
export const createKey = withWorkspace(
  { permission: 'keys.manage_test', forInput: (input) => forEnvironment('keys', input.environment) },
  PortalCreateKeyInput,
  async (ctx, { expiresInDays, ...input }) => {
    const expiresAt = expiresInDays ? new Date(Date.now() + Number(expiresInDays) * 86_400_000) : undefined;
    const { key, secret } = await createApiKey(ctx.workspace.id, { ...input, expiresAt }, await portalActor(ctx));
    revalidatePath('/keys');
    return {
      key: { id: key.id, label: key.label, prefix: key.prefix, environment: key.environment, scopes: key.scopes },
      secret,
    };
  },
  { arrays: ['scopes'] },
);

/** Revokes a key of the signed-in user's workspace; another workspace's key id is "not found". */
export const revokeKey = withWorkspace(
  { permission: 'keys.manage_test' },
  z.object({ keyId: z.coerce.number({ error: 'Invalid key' }).int().positive('Invalid key') }),
  async (ctx, input) => {
    const key = await revokeApiKey(input.keyId, ctx.workspace.id, await portalActor(ctx), (environment) =>
      assertCan(ctx, forEnvironment('keys', environment)),
    );
    revalidatePath('/keys');
    revalidatePath('/usage');
    return { id: key.id, label: key.label };
  },
);

/**
 * Rolls a key of the signed-in user's workspace: the new secret goes back to the calling form only (shown
 * once); the old key keeps working for the chosen grace period (now, 1 h, 24 h, 7 days).
 */
export const rollKey = withWorkspace(
  { permission: 'keys.manage_test' },
  z.object({
    keyId: z.coerce.number({ error: 'Invalid key' }).int().positive('Invalid key'),
    grace: z.coerce
      .number()
      .refine((value) => (ROLL_GRACE_CHOICES as readonly number[]).includes(value), 'Choose a grace period'),
  }),
  async (ctx, input) => {
    const { key, secret, old } = await rollApiKey(
      input.keyId,
      ctx.workspace.id,
      input.grace,
      await portalActor(ctx),
      (environment) => assertCan(ctx, forEnvironment('keys', environment)),
    );
    revalidatePath('/keys');
    // Decided here, not at render: whether the old secret still works is a fact of the roll's moment.
    const oldWorksUntil = old.expiresAt && old.expiresAt.getTime() > Date.now() ? old.expiresAt.toISOString() : null;
    return {
      key: { id: key.id, label: key.label, prefix: key.prefix, environment: key.environment, scopes: key.scopes },
      secret,
      oldWorksUntil,
    };
  },
);
