import { z } from 'zod';
import { db } from '../db';
import { AppError } from '../errors';
import { SCOPES, normalizeScopes, type Scope } from '../scopes';
import { KEY_ENVIRONMENTS, generateSecret, type KeyEnvironment } from './secret';

export const CreateKeyInput = z.strictObject({
  label: z.string().trim().min(1, 'Label is required').max(64, 'Label must be at most 64 characters'),
  environment: z.enum(KEY_ENVIRONMENTS),
  scopes: z.array(z.enum(SCOPES)).optional().describe('None given → both scopes'),
});
export type CreateKeyInput = z.input<typeof CreateKeyInput>;

/** A key as it is shown anywhere after creation: never the secret, never the hash. */
export interface ApiKeyView {
  id: number;
  label: string;
  prefix: string;
  environment: KeyEnvironment;
  scopes: Scope[];
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}

const keyViewSelect = {
  id: true,
  label: true,
  prefix: true,
  environment: true,
  scopes: true,
  createdAt: true,
  lastUsedAt: true,
  revokedAt: true,
} as const;

function toView(row: { scopes: string[] } & Omit<ApiKeyView, 'scopes'>): ApiKeyView {
  return { ...row, scopes: normalizeScopes(row.scopes.filter((s): s is Scope => (SCOPES as readonly string[]).includes(s))) };
}

/** Creates a key and returns its secret — the only time the secret exists outside the caller's hands. */
export async function createApiKey(workspaceId: string, input: CreateKeyInput): Promise<{ key: ApiKeyView; secret: string }> {
  const parsed = CreateKeyInput.parse(input);
  const { secret, prefix, hash } = generateSecret(parsed.environment);
  const row = await db().apiKey.create({
    data: {
      workspaceId,
      label: parsed.label,
      environment: parsed.environment,
      scopes: normalizeScopes(parsed.scopes),
      prefix,
      secretHash: hash,
    },
    select: keyViewSelect,
  });
  return { key: toView(row), secret };
}

export async function listApiKeys(workspaceId: string): Promise<ApiKeyView[]> {
  const rows = await db().apiKey.findMany({ where: { workspaceId }, orderBy: { id: 'desc' }, select: keyViewSelect });
  return rows.map(toView);
}

/**
 * Revokes a key. `workspaceId` scopes the lookup for tenant-facing callers (portal); the operator CLI
 * passes null. Revoking is effective on the next request: authentication reads the key every time.
 */
export async function revokeApiKey(keyId: number, workspaceId: string | null): Promise<ApiKeyView & { workspaceId: string }> {
  const scope = workspaceId === null ? { id: keyId } : { id: keyId, workspaceId };
  // One compare-and-set: of two concurrent revokes exactly one succeeds, the other reads as already revoked.
  const { count } = await db().apiKey.updateMany({ where: { ...scope, revokedAt: null }, data: { revokedAt: new Date() } });
  const row = await db().apiKey.findFirst({ where: scope, select: { ...keyViewSelect, workspaceId: true } });
  if (!row) throw new AppError('not_found', `API key ${keyId} not found`);
  if (count === 0) throw new AppError('key_already_revoked', `API key ${keyId} is already revoked`);
  return { ...toView(row), workspaceId: row.workspaceId };
}
