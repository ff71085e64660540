/**
 * The role table: who in a workspace may do what (docs/portal.md, "Members and roles"). Every portal page, server
 * action, the navigation and the admin CLI read it; nothing else decides. Pure data, safe to import anywhere.
 *
 * A permission names one thing a person may see or do. `_test` / `_live` pairs split by environment: a Developer
 * works with test keys and test webhooks, reads live invoices and logs, and never holds a live secret.
 */
export const ROLES = ['owner', 'admin', 'developer', 'viewer'] as const;
export type Role = (typeof ROLES)[number];

export const ROLE_LABELS: Record<Role, string> = {
  owner: 'Owner',
  admin: 'Admin',
  developer: 'Developer',
  viewer: 'Viewer',
};

export const ROLE_DESCRIPTIONS: Record<Role, string> = {
  owner: 'Everything, including the plan, members and transferring ownership.',
  admin: 'Everything but ownership and the plan: test and live keys, webhooks, wallets, members below Owner.',
  developer: 'Test keys, test invoices and test webhooks; reads live invoices and logs. No live keys, no wallets.',
  viewer: 'Read-only: invoices, usage and logs. Never a secret.',
};

const ALL: readonly Role[] = ROLES;
const BUILDERS: readonly Role[] = ['owner', 'admin', 'developer'];
const MANAGERS: readonly Role[] = ['owner', 'admin'];
const OWNER: readonly Role[] = ['owner'];

export const PERMISSIONS = {
  /** Overview, invoices (test and live), unmatched payments, usage, the request log. */
  'workspace.read': ALL,
  'invoices.write_test': BUILDERS,
  'invoices.write_live': MANAGERS,
  /** Attaching an unmatched on-chain payment to an invoice: live money. */
  'payments.attach': MANAGERS,
  /** The key list (prefixes, scopes, who created them; never a secret). */
  'keys.read': BUILDERS,
  'keys.manage_test': BUILDERS,
  'keys.manage_live': MANAGERS,
  'webhooks.read': BUILDERS,
  'webhooks.manage_test': BUILDERS,
  'webhooks.manage_live': MANAGERS,
  'wallets.read': MANAGERS,
  'wallets.manage': MANAGERS,
  'billing.read': MANAGERS,
  'plan.change': OWNER,
  /** Which short payments count as paid (payment_tolerance_percent): a money rule. */
  'payment_tolerance.change': MANAGERS,
  'audit.read': MANAGERS,
  /** Who is in the workspace and with which role (not the pending invitations): every member, who may also leave. */
  'members.read': ALL,
  /** Invite, revoke invitations, change roles and remove members — Admins only below Owner (canManageMember). */
  'members.manage': MANAGERS,
  'ownership.transfer': OWNER,
  /** The signed-in person's own account (password, two-factor, GitHub) and creating workspaces of their own. */
  'self.manage': ALL,
} as const satisfies Record<string, readonly Role[]>;

export type Permission = keyof typeof PERMISSIONS;
export const PERMISSION_NAMES = Object.keys(PERMISSIONS) as Permission[];

export function isRole(value: string): value is Role {
  return (ROLES as readonly string[]).includes(value);
}

export function can(role: Role, permission: Permission): boolean {
  return (PERMISSIONS[permission] as readonly Role[]).includes(role);
}

/** The environment-specific permission: live keys, invoices and webhooks are for Owners and Admins. */
export function forEnvironment(kind: 'keys' | 'webhooks' | 'invoices', environment: 'test' | 'live'): Permission {
  if (kind === 'invoices') return environment === 'live' ? 'invoices.write_live' : 'invoices.write_test';
  return environment === 'live' ? `${kind}.manage_live` : `${kind}.manage_test`;
}

/** Roles an actor may hand out (invite as, change to): Owners any, Admins only below Owner. */
export function assignableRoles(actor: Role): Role[] {
  if (actor === 'owner') return [...ROLES];
  if (actor === 'admin') return ['admin', 'developer', 'viewer'];
  return [];
}

/** Whether an actor may change or remove a member holding `target`: Admins never touch an Owner. */
export function canManageMember(actor: Role, target: Role): boolean {
  return can(actor, 'members.manage') && (actor === 'owner' || target !== 'owner');
}

/**
 * The portal's pages and the permission each needs, by route (the folder under app/(portal), `[x]` for a
 * parameter). The navigation shows a link only to a role that may open it; the page refuses everyone else.
 */
export const PAGE_PERMISSIONS = {
  '/': 'workspace.read',
  '/keys': 'keys.read',
  '/usage': 'workspace.read',
  '/requests': 'workspace.read',
  '/requests/[requestId]': 'workspace.read',
  '/invoices': 'workspace.read',
  '/invoices/new': 'invoices.write_test',
  '/invoices/[id]': 'workspace.read',
  '/invoices/unmatched': 'workspace.read',
  '/wallets': 'wallets.read',
  '/webhooks': 'webhooks.read',
  '/webhooks/[id]': 'webhooks.read',
  '/billing': 'billing.read',
  '/account': 'self.manage',
  '/audit': 'audit.read',
  '/members': 'members.read',
} as const satisfies Record<string, Permission>;

export type PortalPage = keyof typeof PAGE_PERMISSIONS;
