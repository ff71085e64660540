import { db } from '../db';

/**
 * An audit row's target in the words the rest of the portal uses. Rows store a stable reference ("key 12",
 * "webhook endpoint we_…", "workspace ws_…", "user …"); the audit page shows what the matching page shows: a key
 * by its label and prefix (as the keys table), an endpoint by its URL, a workspace by its name, a person by
 * email. Looked up when the page is read (a renamed key shows its current label; the row's own details keep
 * the label at the time), within the workspace only.
 */
export interface TargetRow {
  target: string | null;
  details: unknown;
}

type Details = Record<string, unknown>;

function text(details: unknown, name: string): string | null {
  const value = details && typeof details === 'object' ? (details as Details)[name] : undefined;
  return typeof value === 'string' && value !== '' ? value : null;
}

/** "API key “Checkout server” (test_Ab12cd…)" */
export function keyTargetText(label: string | null, prefix: string | null): string {
  if (label === null) return prefix ? `API key ${prefix}…` : 'API key (no longer listed)';
  return `API key “${label}”${prefix ? ` (${prefix}…)` : ''}`;
}

/** Describes each row's target (same order as `rows`); unknown shapes are shown as stored. */
export async function describeAuditTargets(
  workspaceId: string,
  rows: readonly TargetRow[],
): Promise<Array<string | null>> {
  const ids = (pattern: RegExp) => [
    ...new Set(rows.map((row) => pattern.exec(row.target ?? '')?.[1]).filter((id): id is string => id !== undefined)),
  ];
  const keyIds = ids(/^key (\d{1,9})$/).map(Number);
  const endpointIds = ids(/^webhook endpoint (\S+)$/);
  const userIds = ids(/^user (\S+)$/);
  const [keys, endpoints, users, workspace] = await Promise.all([
    keyIds.length
      ? db().apiKey.findMany({
          where: { workspaceId, id: { in: keyIds } },
          select: { id: true, label: true, prefix: true },
        })
      : [],
    endpointIds.length
      ? db().webhookEndpoint.findMany({
          where: { workspaceId, id: { in: endpointIds } },
          select: { id: true, url: true },
        })
      : [],
    // Only people of this workspace's own audit rows; an email is what the members page shows.
    userIds.length ? db().user.findMany({ where: { id: { in: userIds } }, select: { id: true, email: true } }) : [],
    db().workspace.findUnique({ where: { id: workspaceId }, select: { id: true, name: true } }),
  ]);
  const keyById = new Map(keys.map((key) => [String(key.id), key]));
  const urlById = new Map(endpoints.map((endpoint) => [endpoint.id, endpoint.url]));
  const emailById = new Map(users.map((user) => [user.id, user.email]));
  return rows.map((row) => {
    const target = row.target;
    if (!target) return null;
    const key = /^key (\d{1,9})$/.exec(target);
    if (key) {
      const found = keyById.get(key[1]!);
      return keyTargetText(found?.label ?? text(row.details, 'label'), found?.prefix ?? text(row.details, 'prefix'));
    }
    const endpoint = /^webhook endpoint (\S+)$/.exec(target);
    if (endpoint) {
      const url = urlById.get(endpoint[1]!);
      return url ? `Webhook endpoint ${url}` : 'Webhook endpoint (deleted)';
    }
    const user = /^user (\S+)$/.exec(target);
    if (user) return emailById.get(user[1]!) ?? 'A user (no email)';
    if (workspace && target === `workspace ${workspace.id}`) return `Workspace “${workspace.name}”`;
    const network = /^network (\S+)$/.exec(target);
    if (network) return `${network[1]} wallet`;
    return target;
  });
}
