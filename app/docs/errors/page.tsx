import type { Metadata } from 'next';
import { documentedErrors } from '@/lib/api/errors-page';

export const metadata: Metadata = { title: 'API errors' };
export const dynamic = 'force-dynamic'; // the type URIs follow PUBLIC_URL at run time

/** The page every problem's `type` links to (`#<code>`): generated from lib/errors.ts. */
export default function ErrorsPage() {
  const errors = documentedErrors();
  return (
    <main className="mx-auto max-w-3xl px-4 py-10">
      <h1 className="text-2xl font-bold tracking-tight">API errors</h1>
      <p className="mt-2 text-sm text-slate-700">
        Every error of the API is an RFC 9457 problem (<code>application/problem+json</code>) with a stable{' '}
        <code>code</code>; its <code>type</code> links to the entry below. New codes may be added: treat an unknown code
        by its HTTP status. Also as{' '}
        <a className="text-indigo-700 underline" href="/docs/errors.json">
          JSON
        </a>
        .
      </p>
      <dl className="mt-8 space-y-6">
        {errors.map((error) => (
          <div
            key={error.code}
            id={error.code}
            className="scroll-mt-6 rounded-lg bg-white p-4 shadow-sm ring-1 ring-slate-200"
          >
            <dt className="flex flex-wrap items-baseline gap-x-3">
              <code className="text-base font-semibold">{error.code}</code>
              <span className="text-sm text-slate-700">
                {error.status} · {error.title}
              </span>
            </dt>
            <dd className="mt-2 text-sm text-slate-800">{error.meaning}</dd>
            <dd className="mt-1 text-sm text-slate-800">
              <span className="font-semibold">What to do: </span>
              {error.action}
            </dd>
          </div>
        ))}
      </dl>
    </main>
  );
}
