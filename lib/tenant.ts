import type { KeyEnvironment } from './keys/api-key-secret';

/**
 * The tenant boundary: every tenant-owned row belongs to one workspace and one of its environments, and every
 * query on such rows is bounded by both. (An API key's *scopes*, lib/scopes.ts, are permissions — a different thing.)
 */
export interface Tenant {
  workspaceId: string;
  environment: KeyEnvironment;
}

/** The tenant an authenticated API key (lib/keys/authorize.ts AuthorizedKey) acts in. */
export function tenantOfKey(key: { workspace: { id: string }; environment: KeyEnvironment }): Tenant {
  return { workspaceId: key.workspace.id, environment: key.environment };
}
