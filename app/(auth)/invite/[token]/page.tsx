import type { Metadata } from 'next';
import Link from 'next/link';
import { Notice } from '@/components/ui';
import { currentUser } from '@/lib/portal/context';
import { accountEmail, accountExists, lookupInvitation } from '@/lib/teams/invitations';
import { ROLE_DESCRIPTIONS, ROLE_LABELS } from '@/lib/teams/roles';
import { AcceptForm, InviteSignUpForm, SignOutAndReturn } from './invite-forms';

export const metadata: Metadata = { title: 'Invitation', referrer: 'no-referrer' };
export const dynamic = 'force-dynamic';

const WHY_NOT = {
  expired: 'This invitation has expired: links work for 7 days.',
  used: 'This invitation was already used: each link works once.',
  revoked: 'This invitation was revoked by the workspace.',
  unknown: 'This invitation link is not valid.',
} as const;

/**
 * An invitation link. Signed out: sign in (existing account with the invited email) or create the account. Signed
 * in with the invited email: join. Signed in as someone else: a page that says so, with the way forward.
 */
export default async function InvitationPage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const lookup = await lookupInvitation(token);
  if (lookup.status !== 'valid') {
    return (
      <>
        <h1 className="text-xl font-bold">Invitation not valid</h1>
        <div className="mt-4">
          <Notice tone="error">{WHY_NOT[lookup.status]}</Notice>
        </div>
        <p className="mt-4 text-sm text-slate-600">Ask the person who invited you for a new invitation.</p>
      </>
    );
  }
  const { invitation } = lookup;
  const user = await currentUser();
  // The account's own email (a GitHub-only account has none): the same one acceptInvitation compares.
  const ownEmail = user ? ((await accountEmail(user.userId)) ?? '') : '';
  const here = `/invite/${token}`;
  const intro = (
    <>
      <h1 className="text-xl font-bold">Join {invitation.workspaceName}</h1>
      <p className="mt-2 text-sm text-slate-700">
        {invitation.invitedByLabel} invited <span className="font-semibold break-all">{invitation.email}</span> as{' '}
        <span className="font-semibold">{ROLE_LABELS[invitation.role]}</span>: {ROLE_DESCRIPTIONS[invitation.role]}
      </p>
    </>
  );

  if (user && ownEmail.toLowerCase() !== invitation.email) {
    return (
      <>
        {intro}
        <div className="mt-4" data-testid="wrong-account">
          <Notice tone="warning" title="This invitation is for another email">
            You are signed in as{' '}
            <span className="break-all font-semibold">{ownEmail || user.email || 'an account without an email'}</span>.
            The invitation works only for <span className="break-all font-semibold">{invitation.email}</span>.
          </Notice>
        </div>
        <div className="mt-4 space-y-3">
          <SignOutAndReturn returnTo={here} />
          <Link href="/" className="block text-center text-sm font-semibold text-indigo-700 underline">
            Back to my workspace
          </Link>
        </div>
      </>
    );
  }
  if (user) {
    return (
      <>
        {intro}
        <AcceptForm token={token} workspaceName={invitation.workspaceName} />
      </>
    );
  }
  if (await accountExists(invitation.email)) {
    return (
      <>
        {intro}
        <p className="mt-4 text-sm">You already have an account with this email: sign in to accept.</p>
        <Link
          href={`/signin?callbackUrl=${encodeURIComponent(here)}`}
          className="mt-4 block rounded-md bg-indigo-600 px-3 py-2 text-center text-sm font-semibold text-white hover:bg-indigo-500"
        >
          Sign in as {invitation.email}
        </Link>
      </>
    );
  }
  return (
    <>
      {intro}
      <InviteSignUpForm token={token} email={invitation.email} />
    </>
  );
}
