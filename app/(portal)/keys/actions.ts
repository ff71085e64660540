'use server';

import { revalidatePath } from 'next/cache';
import { z } from 'zod';
import { createApiKey, CreateKeyInput, revokeApiKey } from '@/lib/keys/keys';
import { withWorkspace } from '@/lib/portal/action';

/**
 * Creates a key in the signed-in user's workspace. The secret is returned to the calling form only (the
 * response is Cache-Control: no-store, see next.config.js); it is not stored, logged or put in a URL.
 */
export const createKey = withWorkspace(
  CreateKeyInput,
  async (ctx, input) => {
    const { key, secret } = await createApiKey(ctx.workspace.id, input);
    revalidatePath('/keys');
    return { key: { id: key.id, label: key.label, prefix: key.prefix, environment: key.environment, scopes: key.scopes }, secret };
  },
  { arrays: ['scopes'] },
);

/** Revokes a key of the signed-in user's workspace; another workspace's key id is "not found". */
export const revokeKey = withWorkspace(z.object({ keyId: z.coerce.number({ error: 'Invalid key' }).int().positive('Invalid key') }), async (ctx, input) => {
  const key = await revokeApiKey(input.keyId, ctx.workspace.id);
  revalidatePath('/keys');
  revalidatePath('/usage');
  return { id: key.id, label: key.label };
});
