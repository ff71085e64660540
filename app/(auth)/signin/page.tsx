import type { Metadata } from 'next';
import Link from 'next/link';
import { redirect } from 'next/navigation';
import { currentUserId } from '@/lib/portal/context';
import { SignInForm } from './signin-form';

export const metadata: Metadata = { title: 'Sign in' };
export const dynamic = 'force-dynamic';

export default async function SignInPage() {
  if (await currentUserId()) redirect('/');
  const github = Boolean(process.env.GITHUB_ID && process.env.GITHUB_SECRET);
  return (
    <>
      <h1 className="text-xl font-bold">Sign in to the developer portal</h1>
      <SignInForm github={github} />
      <p className="mt-6 text-sm text-slate-600">
        No account yet?{' '}
        <Link href="/signup" className="font-semibold text-indigo-700 underline">
          Sign up
        </Link>
      </p>
    </>
  );
}
