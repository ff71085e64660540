import Link from 'next/link';

/** Unknown addresses outside the portal (the portal has its own, inside its layout). */
export default function NotFound() {
  return (
    <main id="main" className="mx-auto max-w-xl px-4 py-16">
      <h1 className="text-2xl font-bold tracking-tight">Page not found</h1>
      <p className="mt-2 text-sm text-slate-600">There is nothing at this address.</p>
      <p className="mt-4 text-sm">
        <Link href="/" className="font-semibold text-indigo-700 underline">
          Go to the portal
        </Link>{' '}
        ·{' '}
        <Link href="/docs" className="font-semibold text-indigo-700 underline">
          API reference
        </Link>
      </p>
    </main>
  );
}
