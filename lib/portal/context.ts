import { getServerSession } from 'next-auth';
import { forbidden, redirect } from 'next/navigation';
import { cache } from 'react';
import { authOptions } from '../auth/next-auth';
import { AppError } from '../errors';
import { chosenWorkspace, listMemberships } from '../teams/members';
import { can, PAGE_PERMISSIONS, ROLE_LABELS, type Permission, type PortalPage, type Role } from '../teams/roles';
import type { WorkspaceView } from '../workspaces/workspaces';

export interface PortalContext {
  userId: string;
  email: string;
  sessionId: string;
  workspace: WorkspaceView;
  /** The user's role in `workspace`, read from the membership on this request. */
  role: Role;
  /** Every workspace the user belongs to (the header's switcher). */
  workspaces: { id: string; name: string; role: Role }[];
}

/**
 * The signed-in user and the workspace they work in, for portal pages and actions. Reading the session runs the
 * jwt callback, which checks the server-side session row (not revoked, not expired); no user → sign in.
 * The workspace is never taken from the request: it is the session's choice (the switcher), used only while
 * the user is still a member — read again on every request, so a removed member loses the workspace on their
 * next request — else their first workspace. No workspace at all → the page to create one.
 * Memoized per request (React cache), so the layout and the page share one check.
 */
export const requirePortalContext = cache(async (): Promise<PortalContext> => {
  const session = await getServerSession(authOptions());
  const user = session?.user;
  if (!user?.id || !session?.sid) redirect('/signin');
  const [memberships, chosen] = await Promise.all([listMemberships(user.id), chosenWorkspace(session.sid)]);
  const current = memberships.find((m) => m.workspace.id === chosen) ?? memberships[0];
  if (!current) redirect('/workspaces/new');
  return {
    userId: user.id,
    email: user.email,
    sessionId: session.sid,
    workspace: current.workspace as WorkspaceView,
    role: current.role,
    workspaces: memberships.map((m) => ({ id: m.workspace.id, name: m.workspace.name, role: m.role })),
  };
});

/** Refuses (role_forbidden) unless the context's role has the permission; for actions and domain callbacks. */
export function assertCan(ctx: Pick<PortalContext, 'role'>, permission: Permission): void {
  if (!can(ctx.role, permission)) {
    throw new AppError(
      'role_forbidden',
      `Your role (${ROLE_LABELS[ctx.role]}) does not allow this. Ask an Owner or Admin of the workspace.`,
    );
  }
}

/** For a portal page: its permission from the role table (PAGE_PERMISSIONS), else the 403 page. */
export async function requirePage(page: PortalPage): Promise<PortalContext> {
  const ctx = await requirePortalContext();
  if (!can(ctx.role, PAGE_PERMISSIONS[page])) forbidden();
  return ctx;
}

/** For the sign-in/sign-up pages: who is signed in, if anyone (same liveness check). */
export async function currentUserId(): Promise<string | null> {
  const session = await getServerSession(authOptions());
  return session?.user?.id && session.sid ? session.user.id : null;
}

/** The signed-in user and session, without a workspace (creating a workspace, accepting an invitation). */
export async function currentUser(): Promise<{ userId: string; email: string; sessionId: string } | null> {
  const session = await getServerSession(authOptions());
  return session?.user?.id && session.sid
    ? { userId: session.user.id, email: session.user.email, sessionId: session.sid }
    : null;
}
