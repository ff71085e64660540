'use server';

import { revalidatePath } from 'next/cache';
import { redirect } from 'next/navigation';
import { z } from 'zod';
import { withSignedInUser } from '@/lib/portal/action';
import { portalActor } from '@/lib/portal/actor';
import { chooseWorkspace, createWorkspace } from '@/lib/teams/members';

/** The header's switcher: kept on the session only for a workspace the user belongs to (else "not found"). */
export const switchWorkspace = withSignedInUser(
  z.object({ workspaceId: z.string().regex(/^ws_[0-9A-Za-z]{24}$/, 'Unknown workspace') }),
  async (user, input) => {
    await chooseWorkspace(user.sessionId, user.userId, input.workspaceId);
    // Every page and the layout (header, navigation) now show another workspace: none of the router's cache holds.
    revalidatePath('/', 'layout');
    redirect('/');
  },
);

/** A new workspace of the user's own (they are its Owner); the session switches to it. */
export const createWorkspaceAction = withSignedInUser(
  z.object({ name: z.string().trim().min(1, 'Name the workspace').max(80, 'At most 80 characters') }),
  async (user, input) => {
    const workspace = await createWorkspace(user.userId, input.name, await portalActor(user));
    await chooseWorkspace(user.sessionId, user.userId, workspace.id);
    revalidatePath('/', 'layout');
    redirect('/');
  },
);
