/** The scope table: which scopes exist. Endpoints name the scope they need in lib/api/endpoints. */
export const SCOPES = ['invoices:read', 'invoices:write'] as const;
export type Scope = (typeof SCOPES)[number];

export const SCOPE_DESCRIPTIONS: Record<Scope, string> = {
  // GET /v1/rates too: the rate a create would lock is what reading invoices shows afterwards.
  'invoices:read': 'List and read invoices and events, and the exchange rates',
  'invoices:write': 'Create, cancel and simulate payment of invoices',
};

export function isScope(value: string): value is Scope {
  return (SCOPES as readonly string[]).includes(value);
}

/** A key created without scopes receives all of them. Duplicates are removed; order follows SCOPES. */
export function normalizeScopes(requested: readonly Scope[] | undefined): Scope[] {
  if (!requested || requested.length === 0) return [...SCOPES];
  return SCOPES.filter((scope) => requested.includes(scope));
}

export function missingScopeMessage(scope: Scope): string {
  return `API key scope ${scope} is required`;
}
