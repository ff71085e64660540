import { db } from '../db';
import type { PlanName } from '../plans';

/**
 * Operator-only reads (the admin CLI): every user and workspace of the installation. Tenant-facing code uses
 * listUserWorkspaces/requireMembership instead, which see only the caller's own workspaces.
 */
export interface UserListing {
  id: string;
  email: string | null;
  createdAt: Date;
  workspaces: { id: string; name: string; role: string }[];
}

export interface WorkspaceListing {
  id: string;
  name: string;
  plan: PlanName;
  createdAt: Date;
  members: { email: string | null; role: string }[];
}

export async function listUsers(): Promise<UserListing[]> {
  const users = await db().user.findMany({
    orderBy: { createdAt: 'asc' },
    select: {
      id: true,
      email: true,
      createdAt: true,
      memberships: {
        orderBy: { createdAt: 'asc' },
        select: { role: true, workspace: { select: { id: true, name: true } } },
      },
    },
  });
  return users.map(({ memberships, ...user }) => ({
    ...user,
    workspaces: memberships.map((m) => ({ id: m.workspace.id, name: m.workspace.name, role: m.role })),
  }));
}

/** All workspaces, or those the user with this email belongs to (emails are stored lower-cased). */
export async function listWorkspaces(filter: { email?: string } = {}): Promise<WorkspaceListing[]> {
  const email = filter.email?.trim().toLowerCase();
  const workspaces = await db().workspace.findMany({
    where: email ? { memberships: { some: { user: { email } } } } : {},
    orderBy: { createdAt: 'asc' },
    select: {
      id: true,
      name: true,
      plan: true,
      createdAt: true,
      memberships: { orderBy: { createdAt: 'asc' }, select: { role: true, user: { select: { email: true } } } },
    },
  });
  return workspaces.map(({ memberships, ...workspace }) => ({
    ...workspace,
    members: memberships.map((m) => ({ email: m.user.email, role: m.role })),
  }));
}
