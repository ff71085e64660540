import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Metadata } from 'next';
import Link from 'next/link';
import { markdownToHtml } from '@/lib/docs/markdown';

export const metadata: Metadata = { title: 'API versioning and deprecation policy' };

/** Per request, like /docs: the scripts carry the CSP nonce; and the policy is read from docs/ as it ships. */
export const dynamic = 'force-dynamic';

const MARKDOWN_CLASS =
  '[&_a]:text-indigo-700 [&_a]:underline [&_code]:rounded [&_code]:bg-slate-100 [&_code]:px-1 [&_code]:py-0.5 [&_code]:font-mono [&_code]:text-[0.9em] [&_h1]:text-3xl [&_h1]:font-bold [&_h1]:tracking-tight [&_h2]:mt-8 [&_h2]:text-xl [&_h2]:font-semibold [&_li]:mt-1.5 [&_p]:mt-3 [&_ul]:mt-3 [&_ul]:list-disc [&_ul]:pl-5';

/** GET /docs/versioning: docs/versioning.md as HTML, linked from the OpenAPI document's description. */
export default async function VersioningPage() {
  const source = await readFile(path.join(process.cwd(), 'docs', 'versioning.md'), 'utf8');
  return (
    <div className="min-h-screen">
      <header className="border-b border-slate-200 bg-white">
        <div className="mx-auto flex max-w-3xl flex-wrap items-center justify-between gap-3 px-4 py-3 text-sm">
          <Link href="/docs" className="font-semibold text-indigo-700 underline">
            ← API reference
          </Link>
        </div>
      </header>
      {/* markdown-it escapes raw HTML in the source (lib/docs/markdown.ts). */}
      <main
        id="main"
        className={`mx-auto max-w-3xl px-4 py-8 text-sm leading-relaxed text-slate-800 ${MARKDOWN_CLASS}`}
        dangerouslySetInnerHTML={{ __html: markdownToHtml(source) }}
      />
    </div>
  );
}
