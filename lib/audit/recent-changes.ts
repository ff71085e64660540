import { providerLabel } from '../auth/providers';
import { db } from '../db';

/**
 * The overview's "recent security changes": payout wallets set or removed, live keys created or rolled,
 * two-factor sign-in turned on or off, and sign-in providers (GitHub) connected or disconnected, in the last RECENT_CHANGES_DAYS days — so that changes made from a
 * hijacked session are seen by the owner on the first page they open. Read from the audit log (index
 * workspace_id, created_at).
 */
export const RECENT_CHANGES_DAYS = 7;
const LIMIT = 10;

type Action =
  | 'wallet.set'
  | 'wallet.removed'
  | 'key.created'
  | 'key.rolled'
  | 'user.two_factor_enabled'
  | 'user.two_factor_disabled'
  | 'user.oauth_linked'
  | 'user.oauth_unlinked';

export interface SecurityChange {
  id: string;
  action: Action;
  /** "Wallet for polygon changed", "Live key “Checkout” created". */
  summary: string;
  actorLabel: string;
  ip: string | null;
  createdAt: Date;
}

type Details = Record<string, unknown>;

function text(details: Details, name: string): string | null {
  const value = details[name];
  return typeof value === 'string' && value !== '' ? value : null;
}

function summarize(action: SecurityChange['action'], target: string | null, details: Details): string | null {
  const network = target?.replace(/^network /, '') ?? 'a network';
  switch (action) {
    case 'wallet.set':
      return text(details, 'previous_address') ? `Wallet for ${network} changed` : `Wallet for ${network} added`;
    case 'wallet.removed':
      return `Wallet for ${network} removed`;
    case 'key.created':
      return text(details, 'environment') === 'live' ? `Live key “${text(details, 'label') ?? '?'}” created` : null;
    case 'key.rolled':
      return text(details, 'environment') === 'live' ? `Live key “${text(details, 'label') ?? '?'}” rolled` : null;
    case 'user.two_factor_enabled':
      return 'Two-factor sign-in turned on';
    case 'user.two_factor_disabled':
      return 'Two-factor sign-in turned off';
    case 'user.oauth_linked':
      return `${providerLabel(text(details, 'provider') ?? '?')} sign-in connected${text(details, 'provider_email') ? ` (${text(details, 'provider_email')})` : ''}`;
    case 'user.oauth_unlinked':
      return `${providerLabel(text(details, 'provider') ?? '?')} sign-in disconnected`;
  }
}

export async function recentSecurityChanges(workspaceId: string, now = new Date()): Promise<SecurityChange[]> {
  const since = new Date(now.getTime() - RECENT_CHANGES_DAYS * 86_400_000);
  // Keys count only when live (the environment is in the row's details); test keys change no money.
  const rows = await db().$queryRaw<
    Array<{
      id: bigint;
      action: string;
      target: string | null;
      details: unknown;
      actor_label: string;
      ip: string | null;
      created_at: Date;
    }>
  >`
    SELECT id, action, target, details, actor_label, ip, created_at FROM audit_log
    WHERE workspace_id = ${workspaceId} AND created_at >= ${since}
      AND (action IN ('wallet.set', 'wallet.removed', 'user.two_factor_enabled', 'user.two_factor_disabled', 'user.oauth_linked', 'user.oauth_unlinked')
           OR (action IN ('key.created', 'key.rolled') AND details->>'environment' = 'live'))
    ORDER BY created_at DESC, id DESC
    LIMIT ${LIMIT}`;
  const changes: SecurityChange[] = [];
  for (const row of rows) {
    const action = row.action as SecurityChange['action'];
    const details =
      row.details && typeof row.details === 'object' && !Array.isArray(row.details) ? (row.details as Details) : {};
    const summary = summarize(action, row.target, details);
    if (summary)
      changes.push({
        id: row.id.toString(),
        action,
        summary,
        actorLabel: row.actor_label,
        ip: row.ip,
        createdAt: row.created_at,
      });
  }
  return changes;
}
