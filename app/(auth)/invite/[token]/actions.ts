'use server';

import { headers } from 'next/headers';
import { redirect } from 'next/navigation';
import { z } from 'zod';
import { isAppError } from '@/lib/errors';
import { clientAddress } from '@/lib/http/client-address';
import { withSignedInUser } from '@/lib/portal/action';
import { acceptInvitation, signUpWithInvitation } from '@/lib/teams/invitations';
import { chooseWorkspace } from '@/lib/teams/members';

const Token = z.string().regex(/^[A-Za-z0-9_-]{20,100}$/, 'This invitation link is not valid');

/** A signed-in user accepts: the invitation must be for their email; the session then works in that workspace. */
export const acceptInvitationAction = withSignedInUser(z.object({ token: Token }), async (user, input) => {
  const joined = await acceptInvitation(input.token, user.userId);
  await chooseWorkspace(user.sessionId, user.userId, joined.workspaceId);
  redirect('/');
});

export type InviteSignUpResult =
  { ok: true; email: string } | { ok: false; error: string; fieldErrors?: Record<string, string> };

/**
 * Signs up through an invitation (no session yet): the email is the invitation's, never the form's. The form then
 * signs in with the password just typed.
 */
export async function signUpFromInvitation(formData: FormData): Promise<InviteSignUpResult> {
  const form = z
    .object({ token: Token, password: z.string().max(1024) })
    .safeParse({ token: formData.get('token'), password: formData.get('password') ?? '' });
  if (!form.success) return { ok: false, error: 'This invitation link is not valid' };
  try {
    const created = await signUpWithInvitation(
      form.data.token,
      form.data.password,
      clientAddress((await headers()).get('x-forwarded-for')),
    );
    return { ok: true, email: created.email };
  } catch (error) {
    if (isAppError(error)) {
      const fieldErrors = error.errors ? Object.fromEntries(error.errors.map((e) => [e.path, e.message])) : undefined;
      return { ok: false, error: error.message, fieldErrors };
    }
    console.error('[invitation sign-up] unexpected error', error instanceof Error ? error.message : error);
    return { ok: false, error: 'Something went wrong. Please try again.' };
  }
}
