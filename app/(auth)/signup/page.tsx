import type { Metadata } from 'next';
import Link from 'next/link';
import { redirect } from 'next/navigation';
import { currentUserId } from '@/lib/portal/context';
import { SignUpForm } from './signup-form';

export const metadata: Metadata = { title: 'Sign up' };
export const dynamic = 'force-dynamic';

export default async function SignUpPage() {
  if (await currentUserId()) redirect('/');
  return (
    <>
      <h1 className="text-xl font-bold">Create your developer account</h1>
      <p className="mt-1 text-sm text-slate-600">You get a workspace of your own, starting on the Trial plan.</p>
      <SignUpForm />
      <p className="mt-6 text-sm text-slate-600">
        Already have an account?{' '}
        <Link href="/signin" className="font-semibold text-indigo-700 underline">
          Sign in
        </Link>
      </p>
    </>
  );
}
