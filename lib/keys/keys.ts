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
  const where = workspaceId === null ? { id: keyId } : { id: keyId, workspaceId };
  const existing = await db().apiKey.findFirst({ where, select: { ...keyViewSelect, workspaceId: true } });
  if (!existing) throw new AppError('not_found', `API key ${keyId} not found`);
  if (existing.revokedAt) throw new AppError('key_already_revoked', `API key ${keyId} is already revoked`);
  const row = await db().apiKey.update({
    where: { id: keyId, revokedAt: null },
    data: { revokedAt: new Date() },
    select: { ...keyViewSelect, workspaceId: true },
  });
  return { ...toView(row), workspaceId: row.workspaceId };
}
