'use server';

import { cookies } from 'next/headers';
import { z } from 'zod';
import { createLinkIntent, LINK_INTENT_COOKIE, LINK_INTENT_TTL_MINUTES } from '@/lib/auth/oauth';
import { NewPassword } from '@/lib/auth/password';
import { changePassword } from '@/lib/auth/password-change';
import { githubOAuth, publicUrl } from '@/lib/env';
import { withWorkspace } from '@/lib/portal/action';

export const changePasswordAction = withWorkspace(
  z.object({ currentPassword: z.string().min(1, 'Enter your current password').max(128), newPassword: NewPassword }),
  async (ctx, input) => changePassword({ userId: ctx.userId, keepSessionId: ctx.sessionId, currentPassword: input.currentPassword, newPassword: input.newPassword }),
);

/**
 * "Connect GitHub": only from a signed-in session. Records a single-use link intent for this user and hands it
 * to the OAuth callback in an httpOnly cookie; the form then starts the GitHub sign-in (lib/auth/oauth.ts).
 */
export const connectGitHub = withWorkspace(z.object({}), async (ctx) => {
  if (!githubOAuth()) return { started: false };
  const intent = await createLinkIntent(ctx.userId, 'github');
  (await cookies()).set(LINK_INTENT_COOKIE, intent.id, {
    httpOnly: true,
    sameSite: 'lax',
    secure: publicUrl().startsWith('https:'),
    path: '/api/auth',
    maxAge: LINK_INTENT_TTL_MINUTES * 60,
  });
  return { started: true };
});
