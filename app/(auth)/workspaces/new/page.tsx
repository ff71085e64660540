import type { Metadata } from 'next';
import Link from 'next/link';
import { redirect } from 'next/navigation';
import { currentUser } from '@/lib/portal/context';
import { listMemberships } from '@/lib/teams/members';
import { NewWorkspaceForm } from './new-workspace-form';

export const metadata: Metadata = { title: 'New workspace' };
export const dynamic = 'force-dynamic';

/** Any signed-in person may create a workspace of their own (they are its Owner); also where one with none lands. */
export default async function NewWorkspacePage() {
  const user = await currentUser();
  if (!user) redirect('/signin');
  const memberships = await listMemberships(user.userId);
  return (
    <>
      <h1 className="text-xl font-bold">Create a workspace</h1>
      <p className="mt-1 text-sm text-slate-600">
        {memberships.length === 0
          ? 'You are not a member of any workspace any more. Create one of your own, or ask to be invited again.'
          : 'A separate workspace has its own keys, invoices, wallets, webhooks, plan and members. You will be its Owner.'}
      </p>
      <NewWorkspaceForm />
      {memberships.length > 0 ? (
        <p className="mt-6 text-sm">
          <Link href="/" className="font-semibold text-indigo-700 underline">
            Back to my workspace
          </Link>
        </p>
      ) : null}
    </>
  );
}
