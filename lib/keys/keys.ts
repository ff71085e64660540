import { z } from 'zod';
import { recordAudit, SYSTEM, type AuditActor } from '../audit/audit';
import { requireStepUp, stepUpDetail } from '../auth/step-up';
import { db, type Prisma } from '../db';
import { env } from '../env';
import { AppError } from '../errors';
import { SCOPES, normalizeScopes, type Scope } from '../scopes';
import { AllowedIps } from './allowlist';
import { KEY_ENVIRONMENTS, generateSecret, type KeyEnvironment } from './api-key-secret';

export const CreateKeyInput = z.strictObject({
  label: z.string().trim().min(1, 'Label is required').max(64, 'Label must be at most 64 characters'),
  environment: z.enum(KEY_ENVIRONMENTS),
  scopes: z.array(z.enum(SCOPES)).optional().describe('None given → both scopes'),
  expiresAt: z.coerce
    .date({ error: 'Expiry must be a date and time (ISO 8601)' })
    .refine((date) => date.getTime() > Date.now(), 'Expiry must be in the future')
    .optional()
    .describe('After this instant the key answers 401 expired_api_key'),
  allowedIps: AllowedIps.optional().describe('IPv4/IPv6 addresses or CIDR ranges; none → any address'),
});
export type CreateKeyInput = z.input<typeof CreateKeyInput>;

/** Grace periods the portal offers when rolling a key (seconds): now, 1 h, 24 h, 7 days. */
export const ROLL_GRACE_CHOICES = [0, 3600, 86_400, 604_800] as const;
export const MAX_ROLL_GRACE_SECONDS = 604_800;

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
  expiresAt: Date | null;
  allowedIps: string[];
  rolledToId: number | null;
  /** Who created it (their email at the time); null for the operator CLI and keys from before this was kept. */
  createdByUserId: string | null;
  createdByLabel: string | null;
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
  expiresAt: true,
  allowedIps: true,
  rolledToId: true,
  createdByUserId: true,
  createdByLabel: true,
} as const;

/** The key's creator, from the actor: a portal user (kept when they leave the workspace), else nobody. */
function creatorOf(actor: AuditActor): { createdByUserId: string | null; createdByLabel: string | null } {
  return actor.userId
    ? { createdByUserId: actor.userId, createdByLabel: actor.label }
    : { createdByUserId: null, createdByLabel: null };
}

type KeyRow = { scopes: string[]; allowedIps: string[] | null } & Omit<ApiKeyView, 'scopes' | 'allowedIps'>;

function toView(row: KeyRow): ApiKeyView {
  return {
    ...row,
    allowedIps: row.allowedIps ?? [],
    scopes: normalizeScopes(row.scopes.filter((s): s is Scope => (SCOPES as readonly string[]).includes(s))),
  };
}

/** active | expired | revoked, as the API would answer now. */
export function keyStatus(
  key: Pick<ApiKeyView, 'revokedAt' | 'expiresAt'>,
  now = new Date(),
): 'active' | 'expired' | 'revoked' {
  if (key.revokedAt) return 'revoked';
  if (key.expiresAt && key.expiresAt.getTime() <= now.getTime()) return 'expired';
  return 'active';
}

type Tx = Prisma.TransactionClient;

/**
 * Called with the environment of the key a roll or revoke acts on, before anything changes: the portal passes its
 * role check (a Developer may not touch a live key) and it throws to refuse. The operator CLI passes none.
 */
export type EnvironmentGate = (environment: KeyEnvironment) => void;

/**
 * Serialises key creation per workspace (row lock on the workspace) and applies the two limits of docs/api.md (Keys):
 * at most MAX_ACTIVE_KEYS_PER_WORKSPACE active keys (`replacing`: the key a roll retires is not counted), and
 * at most KEY_CREATION_PER_MINUTE keys created (or rolled) per minute. Under the lock, two concurrent
 * creations cannot both pass a count (no count-then-insert race).
 */
async function checkKeyLimits(tx: Tx, workspaceId: string, replacing: number | null): Promise<void> {
  const locked = await tx.$queryRaw<{ id: string }[]>`SELECT id FROM workspaces WHERE id = ${workspaceId} FOR UPDATE`;
  if (locked.length === 0) throw new AppError('not_found', `Workspace ${workspaceId} not found`);
  const { MAX_ACTIVE_KEYS_PER_WORKSPACE: cap, KEY_CREATION_PER_MINUTE: perMinute } = env();
  const [counts] = await tx.$queryRaw<{ active: number; recent: number }[]>`
    SELECT count(*) FILTER (WHERE revoked_at IS NULL AND (expires_at IS NULL OR expires_at > now())
                              AND id IS DISTINCT FROM ${replacing}::int)::int AS active,
           count(*) FILTER (WHERE created_at > now() - interval '1 minute')::int AS recent
    FROM api_keys WHERE workspace_id = ${workspaceId}`;
  if ((counts?.recent ?? 0) >= perMinute) {
    throw new AppError(
      'key_creation_throttled',
      `At most ${perMinute} keys can be created per minute in a workspace. Try again in a minute`,
    );
  }
  if ((counts?.active ?? 0) >= cap) {
    throw new AppError(
      'key_limit_reached',
      `This workspace has ${cap} active keys, the most it can have. Revoke keys you no longer use, then create this one`,
    );
  }
}

/** PostgreSQL's canonical form of each allowlist entry (network address and prefix: "10.0.0.0/8", "2001:db8::/32"). */
async function canonicalAllowlist(tx: Tx, entries: readonly string[] | undefined): Promise<string[]> {
  if (!entries || entries.length === 0) return [];
  const rows = await tx.$queryRaw<{ cidr: string }[]>`
    SELECT DISTINCT network(entry::inet)::text AS cidr FROM unnest(${[...entries]}::text[]) AS entry ORDER BY 1`;
  return rows.map((row) => row.cidr);
}

/**
 * Creates a key and returns its secret — the only time the secret exists outside the caller's hands. A live key
 * creates real invoices, so a portal user needs a step-up for one (lib/auth/step-up.ts); test keys do not.
 */
export async function createApiKey(
  workspaceId: string,
  input: CreateKeyInput,
  actor: AuditActor = SYSTEM,
): Promise<{ key: ApiKeyView; secret: string }> {
  const parsed = CreateKeyInput.parse(input);
  const { secret, prefix, hash } = generateSecret(parsed.environment);
  const row = await db().$transaction(async (tx) => {
    const proof = parsed.environment === 'live' ? await requireStepUp(tx, actor) : null;
    await checkKeyLimits(tx, workspaceId, null);
    const created = await tx.apiKey.create({
      data: {
        workspaceId,
        label: parsed.label,
        environment: parsed.environment,
        scopes: normalizeScopes(parsed.scopes),
        prefix,
        secretHash: hash,
        expiresAt: parsed.expiresAt ?? null,
        allowedIps: await canonicalAllowlist(tx, parsed.allowedIps),
        ...creatorOf(actor),
      },
      select: keyViewSelect,
    });
    await recordAudit(tx, {
      workspaceId,
      action: 'key.created',
      actor,
      target: `key ${created.id}`,
      details: {
        label: created.label,
        prefix: created.prefix,
        environment: created.environment,
        scopes: created.scopes,
        expires_at: created.expiresAt?.toISOString() ?? null,
        allowed_ips: created.allowedIps ?? [],
        ...stepUpDetail(proof),
      },
    });
    return created;
  });
  return { key: toView(row), secret };
}

export async function listApiKeys(workspaceId: string): Promise<ApiKeyView[]> {
  const rows = await db().apiKey.findMany({ where: { workspaceId }, orderBy: { id: 'desc' }, select: keyViewSelect });
  return rows.map(toView);
}

/**
 * Rolls a key: a new secret with the same label, environment, scopes, allowlist and expiry, shown once; the
 * old key keeps working for `graceSeconds` (0 = stops now), then answers 401 expired_api_key. `workspaceId`
 * scopes the lookup for the portal; the operator CLI passes null. Key, expiry and audit row commit together.
 * Rolling a live key needs a portal user's step-up, like creating one.
 */
export async function rollApiKey(
  keyId: number,
  workspaceId: string | null,
  graceSeconds: number,
  actor: AuditActor = SYSTEM,
  authorize: EnvironmentGate = () => {},
): Promise<{ key: ApiKeyView; secret: string; old: ApiKeyView }> {
  if (!Number.isInteger(graceSeconds) || graceSeconds < 0 || graceSeconds > MAX_ROLL_GRACE_SECONDS) {
    throw new AppError('validation_failed', `The grace period must be 0–${MAX_ROLL_GRACE_SECONDS} seconds (7 days)`);
  }
  return db().$transaction(async (tx) => {
    const old = await tx.apiKey.findFirst({
      where: workspaceId === null ? { id: keyId } : { id: keyId, workspaceId },
      select: { ...keyViewSelect, workspaceId: true },
    });
    if (!old) throw new AppError('not_found', `API key ${keyId} not found`);
    authorize(old.environment);
    // A rolled live key is a new live secret: the same step-up as creating one.
    const proof = old.environment === 'live' ? await requireStepUp(tx, actor) : null;
    await checkKeyLimits(tx, old.workspaceId, old.id);
    const now = new Date();
    // Re-read under the workspace lock: a concurrent roll or revoke of the same key has committed by now.
    const current = await tx.apiKey.findUniqueOrThrow({ where: { id: old.id }, select: keyViewSelect });
    if (keyStatus(current, now) !== 'active')
      throw new AppError('key_not_active', `API key ${keyId} is ${keyStatus(current, now)} and cannot be rolled`);

    const { secret, prefix, hash } = generateSecret(current.environment);
    const created = await tx.apiKey.create({
      data: {
        workspaceId: old.workspaceId,
        label: current.label,
        environment: current.environment,
        scopes: current.scopes,
        prefix,
        secretHash: hash,
        expiresAt: current.expiresAt,
        allowedIps: current.allowedIps ?? [],
        ...creatorOf(actor),
      },
      select: keyViewSelect,
    });
    const graceEnds = new Date(now.getTime() + graceSeconds * 1000);
    const retiredAt = current.expiresAt && current.expiresAt < graceEnds ? current.expiresAt : graceEnds;
    const retired = await tx.apiKey.update({
      where: { id: current.id },
      data: { expiresAt: retiredAt, rolledToId: created.id },
      select: keyViewSelect,
    });
    await recordAudit(tx, {
      workspaceId: old.workspaceId,
      action: 'key.rolled',
      actor,
      target: `key ${current.id}`,
      details: {
        label: current.label,
        environment: current.environment,
        new_key_id: created.id,
        new_prefix: created.prefix,
        grace_seconds: graceSeconds,
        old_key_expires_at: retiredAt.toISOString(),
        ...stepUpDetail(proof),
      },
    });
    return { key: toView(created), secret, old: toView(retired) };
  });
}

/**
 * Revokes a key. `workspaceId` scopes the lookup for tenant-facing callers (portal); the operator CLI
 * passes null. Revoking is effective on the next request: authentication reads the key every time.
 */
export async function revokeApiKey(
  keyId: number,
  workspaceId: string | null,
  actor: AuditActor = SYSTEM,
  authorize: EnvironmentGate = () => {},
): Promise<ApiKeyView & { workspaceId: string }> {
  const which = workspaceId === null ? { id: keyId } : { id: keyId, workspaceId };
  return db().$transaction(async (tx) => {
    const target = await tx.apiKey.findFirst({ where: which, select: { environment: true } });
    if (target) authorize(target.environment);
    // One compare-and-set: of two concurrent revokes exactly one succeeds, the other reads as already revoked.
    const { count } = await tx.apiKey.updateMany({
      where: { ...which, revokedAt: null },
      data: { revokedAt: new Date() },
    });
    const row = await tx.apiKey.findFirst({ where: which, select: { ...keyViewSelect, workspaceId: true } });
    if (!row) throw new AppError('not_found', `API key ${keyId} not found`);
    if (count === 0) throw new AppError('key_already_revoked', `API key ${keyId} is already revoked`);
    await recordAudit(tx, {
      workspaceId: row.workspaceId,
      action: 'key.revoked',
      actor,
      target: `key ${row.id}`,
      details: { label: row.label, prefix: row.prefix },
    });
    return { ...toView(row), workspaceId: row.workspaceId };
  });
}
