import type { Metadata } from 'next';
import Link from 'next/link';
import { getServerSession } from 'next-auth';
import { redirect } from 'next/navigation';
import { Notice } from '@/components/ui';
import { authOptions } from '@/lib/auth/next-auth';
import { githubOAuth } from '@/lib/env';
import { currentUserId } from '@/lib/portal/context';
import { SignInCodeForm } from './code-form';
import { SignInForm } from './signin-form';

export const metadata: Metadata = { title: 'Sign in' };
export const dynamic = 'force-dynamic';

/** Only an invitation link is a place to come back to after signing in (never another site, never any path). */
function returnPath(value: string | string[] | undefined): string {
  return typeof value === 'string' && /^\/invite\/[A-Za-z0-9_-]{20,100}$/.test(value) ? value : '/';
}

export default async function SignInPage({
  searchParams,
}: {
  searchParams: Promise<{ error?: string | string[]; callbackUrl?: string | string[] }>;
}) {
  const { error, callbackUrl } = await searchParams;
  const next = returnPath(callbackUrl);
  // (no redirect loop for a signed-in user without a workspace, whom the portal sends here)
  if (error !== 'no_workspace' && (await currentUserId())) redirect(next);
  const github = githubOAuth() !== null;
  if ((await getServerSession(authOptions()))?.secondFactorPending) {
    return (
      <>
        <h1 className="text-xl font-bold">Enter your authentication code</h1>
        <SignInCodeForm />
      </>
    );
  }
  return (
    <>
      <h1 className="text-xl font-bold">Sign in to the developer portal</h1>
      {error ? (
        <div className="mt-4">
          <Notice tone="error">
            {error === 'no_workspace'
              ? 'Your account has no workspace. Contact an operator.'
              : 'Sign-in failed. Please try again.'}
          </Notice>
        </div>
      ) : null}
      <SignInForm github={github} next={next} />
      <p className="mt-6 text-sm text-slate-600">
        No account yet?{' '}
        <Link href="/signup" className="font-semibold text-indigo-700 underline">
          Sign up
        </Link>
      </p>
    </>
  );
}
