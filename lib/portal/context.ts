import { getServerSession } from 'next-auth';
import { redirect } from 'next/navigation';
import { cache } from 'react';
import { authOptions } from '../auth/next-auth';
import { listUserWorkspaces, requireMembership, type WorkspaceView } from '../workspaces/workspaces';

export interface PortalContext {
  userId: string;
  email: string;
  sessionId: string;
  workspace: WorkspaceView;
}

/**
 * The signed-in user and their workspace, for portal pages and actions. Reading the session runs the
 * jwt callback, which checks the server-side session row (not revoked, not expired); no user → sign in.
 * The workspace is never taken from the request: it is the user's own, re-checked with requireMembership.
 * Memoized per request (React cache), so the layout and the page share one check.
 */
export const requirePortalContext = cache(async (): Promise<PortalContext> => {
  const session = await getServerSession(authOptions());
  const user = session?.user;
  if (!user?.id || !session?.sid) redirect('/signin');
  const [first] = await listUserWorkspaces(user.id);
  if (!first) redirect('/signin?error=no_workspace');
  const workspace = await requireMembership(user.id, first.id);
  return { userId: user.id, email: user.email, sessionId: session.sid, workspace };
});

/** For the sign-in/sign-up pages: who is signed in, if anyone (same liveness check). */
export async function currentUserId(): Promise<string | null> {
  const session = await getServerSession(authOptions());
  return session?.user?.id && session.sid ? session.user.id : null;
}
