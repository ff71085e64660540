'use server';

import { revalidatePath } from 'next/cache';
import { cookies } from 'next/headers';
import { z } from 'zod';
import { createLinkIntent, LINK_INTENT_COOKIE, LINK_INTENT_TTL_MINUTES, unlinkOAuthAccount } from '@/lib/auth/oauth';
import { NewPassword } from '@/lib/auth/password';
import { changePassword } from '@/lib/auth/password-change';
import { revokeOtherSessions } from '@/lib/auth/sessions';
import { stepUp } from '@/lib/auth/step-up';
import { confirmEnrolment, disableTwoFactor, startEnrolment } from '@/lib/auth/two-factor';
import { githubOAuth, publicUrl } from '@/lib/env';
import { withWorkspace } from '@/lib/portal/action';
import { portalActor } from '@/lib/portal/actor';

const Code = z.string().trim().max(64, 'That is not a code').optional();

export const changePasswordAction = withWorkspace(
  { permission: 'self.manage' },

  z.object({
    currentPassword: z.string().min(1, 'Enter your current password').max(128),
    newPassword: NewPassword,
    code: Code,
  }),
  async (ctx, input) =>
    changePassword({
      userId: ctx.userId,
      keepSessionId: ctx.sessionId,
      currentPassword: input.currentPassword,
      newPassword: input.newPassword,
      code: input.code,
    }),
);

/** The step-up dialog (components/step-up.tsx): proves the password (and code) again for this session. */
export const confirmIdentity = withWorkspace(
  { permission: 'self.manage' },
  z.object({ stepUpPassword: z.string().max(128).optional(), stepUpCode: Code }),
  async (ctx, input) => {
    const { until } = await stepUp({
      actor: await portalActor(ctx),
      password: input.stepUpPassword,
      code: input.stepUpCode,
    });
    return { until: until.toISOString() };
  },
);

/** Two-factor enrolment, step 1 (needs a step-up): a new secret, as a QR code and as text. */
export const startTwoFactor = withWorkspace({ permission: 'self.manage' }, z.object({}), async (ctx) =>
  startEnrolment(await portalActor(ctx), ctx.email || ctx.userId),
);

/** Step 2: a code from the app turns two-factor on; the recovery codes come back once. */
export const confirmTwoFactor = withWorkspace(
  { permission: 'self.manage' },
  z.object({ code: z.string().trim().min(1, 'Enter the code from your app').max(64) }),
  async (ctx, input) => {
    const result = await confirmEnrolment(await portalActor(ctx), input.code);
    revalidatePath('/account');
    return result;
  },
);

export const disableTwoFactorAction = withWorkspace({ permission: 'self.manage' }, z.object({}), async (ctx) => {
  await disableTwoFactor(await portalActor(ctx));
  revalidatePath('/account');
  return { disabled: true };
});

/**
 * "Connect GitHub": only from a signed-in session that has stepped up (step_up_required otherwise). Records a
 * single-use link intent for this user and hands it to the OAuth callback in an httpOnly cookie; the form then
 * starts the GitHub sign-in (lib/auth/oauth.ts).
 */
export const connectGitHub = withWorkspace({ permission: 'self.manage' }, z.object({}), async (ctx) => {
  if (!githubOAuth()) return { started: false };
  const intent = await createLinkIntent(await portalActor(ctx), 'github');
  (await cookies()).set(LINK_INTENT_COOKIE, intent.id, {
    httpOnly: true,
    sameSite: 'lax',
    secure: publicUrl().startsWith('https:'),
    path: '/api/auth',
    maxAge: LINK_INTENT_TTL_MINUTES * 60,
  });
  return { started: true };
});

/** "Disconnect GitHub" (step-up): GitHub sign-ins of this account end too. */
export const disconnectGitHub = withWorkspace({ permission: 'self.manage' }, z.object({}), async (ctx) => {
  const result = await unlinkOAuthAccount(await portalActor(ctx), 'github');
  revalidatePath('/account');
  return result;
});

/** "Sign out everywhere else": every other session of this user ends, password and GitHub sign-ins alike. */
export const signOutEverywhere = withWorkspace({ permission: 'self.manage' }, z.object({}), async (ctx) => {
  const endedSessions = await revokeOtherSessions(ctx.userId, ctx.sessionId, await portalActor(ctx));
  revalidatePath('/account');
  return { endedSessions };
});
