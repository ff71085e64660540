import type { Metadata } from 'next';
import Link from 'next/link';
import type { ReactNode } from 'react';
import { CopyButton } from '@/components/copy-button';
import { OPENAPI_PATH } from '@/lib/api/openapi';
import { apiReference, type ReferenceOperation, type ReferenceParameter } from '@/lib/api/reference';
import { ERRORS_PAGE_PATH } from '@/lib/api/problem';
import { inlineMarkdownToHtml, markdownToHtml } from '@/lib/docs/markdown';

export const metadata: Metadata = { title: 'API reference' };

/**
 * Rendered per request, never prerendered: Next stamps the per-response CSP nonce (scripts/server.ts) only on
 * the scripts of a dynamic render, and the portal's CSP blocks every script without it.
 */
export const dynamic = 'force-dynamic';

type Json = Record<string, unknown>;
const asJson = (value: unknown): Json =>
  value && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : {};

/** Styles for HTML rendered from Markdown (descendant selectors: the HTML comes from markdown-it, not JSX). */
const MARKDOWN_CLASS =
  '[&_a]:text-indigo-700 [&_a]:underline [&_code]:rounded [&_code]:bg-slate-100 [&_code]:px-1 [&_code]:py-0.5 [&_code]:font-mono [&_code]:text-[0.85em] [&_code]:break-words [&_p+p]:mt-2 [&_ul]:list-disc [&_ul]:pl-5';

const METHOD_TONE: Record<string, string> = {
  get: 'bg-blue-50 text-blue-800 ring-blue-600/30',
  post: 'bg-green-50 text-green-800 ring-green-600/30',
  delete: 'bg-red-50 text-red-800 ring-red-600/30',
};

/** Markdown from the OpenAPI document, as HTML. markdown-it escapes raw HTML and refuses script links (lib/docs/markdown.ts). */
function Markdown({
  source,
  inline = false,
  className = '',
}: {
  source: string;
  inline?: boolean;
  className?: string;
}) {
  const html = inline ? inlineMarkdownToHtml(source) : markdownToHtml(source);
  const Tag = inline ? 'span' : 'div';
  return <Tag className={`${MARKDOWN_CLASS} ${className}`} dangerouslySetInnerHTML={{ __html: html }} />;
}

function MethodBadge({ method }: { method: string }) {
  return (
    <span
      className={`rounded px-1.5 py-0.5 font-mono text-xs font-semibold uppercase ring-1 ring-inset ${METHOD_TONE[method] ?? 'bg-slate-100 ring-slate-300'}`}
    >
      {method}
    </span>
  );
}

function CodeBlock({ title, code, testId }: { title: string; code: string; testId?: string }) {
  return (
    <figure
      className="overflow-hidden rounded-lg bg-slate-900 text-slate-100 ring-1 ring-slate-800"
      data-testid={testId}
    >
      <figcaption className="flex items-center justify-between gap-2 border-b border-slate-700 px-3 py-1.5 text-xs font-semibold text-slate-200">
        <span>{title}</span>
        <CopyButton value={code} name={title} size="sm" />
      </figcaption>
      {/* Focusable: a keyboard user scrolls a long line with the arrow keys. */}
      <pre
        tabIndex={0}
        aria-label={title}
        className="overflow-x-auto p-3 font-mono text-xs leading-relaxed focus:outline-2 focus:outline-indigo-400"
      >
        <code>{code}</code>
      </pre>
    </figure>
  );
}

function refName(schema: Json): string | null {
  return typeof schema.$ref === 'string' ? (schema.$ref.split('/').at(-1) ?? null) : null;
}

/** A schema's type in one short phrase: `string`, `"a" | "b"`, `Invoice`, `array of Invoice`. */
function typeOf(schemaValue: unknown): ReactNode {
  const schema = asJson(schemaValue);
  const ref = refName(schema);
  if (ref)
    return (
      <a href={`#schema-${ref}`} className="text-indigo-700 underline">
        {ref}
      </a>
    );
  if ('const' in schema) return JSON.stringify(schema.const);
  if (Array.isArray(schema.enum)) return schema.enum.map((v) => JSON.stringify(v)).join(' | ');
  for (const key of ['anyOf', 'oneOf'] as const) {
    const options = schema[key];
    if (Array.isArray(options))
      return options.map((s, i) => (
        <span key={i}>
          {i > 0 ? ' | ' : ''}
          {typeOf(s)}
        </span>
      ));
  }
  if (Array.isArray(schema.allOf) && schema.allOf.length > 0 && !schema.properties) return typeOf(schema.allOf[0]);
  if (schema.type === 'array') return <>array of {typeOf(schema.items)}</>;
  if (Array.isArray(schema.type)) return schema.type.join(' | ');
  return typeof schema.type === 'string' ? schema.type : 'object';
}

function Field({
  name,
  type,
  required,
  description,
  location,
}: {
  name: string;
  type: ReactNode;
  required: boolean;
  description: string | null;
  location?: string;
}) {
  return (
    <div className="py-2">
      <dt className="flex flex-wrap items-baseline gap-x-2">
        <code className="break-all font-mono text-sm font-semibold">{name}</code>
        <span className="break-words text-xs text-slate-600">
          {location ? `${location} · ` : ''}
          {type}
        </span>
        {required ? <span className="text-xs font-medium text-red-700">required</span> : null}
      </dt>
      {description ? (
        <dd className="mt-1 text-sm text-slate-700">
          <Markdown source={description} inline />
        </dd>
      ) : null}
    </div>
  );
}

function PropertyList({ schema }: { schema: Json }) {
  const properties = Object.entries(asJson(schema.properties));
  if (properties.length === 0) return <p className="text-sm text-slate-700">{typeOf(schema)}</p>;
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  return (
    <dl className="divide-y divide-slate-100">
      {properties.map(([name, value]) => (
        <Field
          key={name}
          name={name}
          type={typeOf(value)}
          required={required.has(name)}
          description={typeof asJson(value).description === 'string' ? String(asJson(value).description) : null}
        />
      ))}
    </dl>
  );
}

function Parameters({ parameters }: { parameters: ReferenceParameter[] }) {
  return (
    <dl className="divide-y divide-slate-100">
      {parameters.map((p) => (
        <Field
          key={`${p.in}-${p.name}`}
          name={p.name}
          location={p.in}
          type={typeOf(p.schema)}
          required={p.required}
          description={p.description}
        />
      ))}
    </dl>
  );
}

function Operation({ op }: { op: ReferenceOperation }) {
  const body = op.requestBody?.schema ?? null;
  return (
    <article
      id={op.id}
      aria-labelledby={`${op.id}-title`}
      className="scroll-mt-4 rounded-lg bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-6"
      data-operation={op.id}
    >
      <h3 id={`${op.id}-title`} className="text-lg font-semibold">
        {op.summary}
      </h3>
      <p className="mt-1 flex flex-wrap items-center gap-2">
        <MethodBadge method={op.method} />
        <code className="break-all font-mono text-sm">{op.path}</code>
      </p>
      <div className="mt-4 grid gap-6 xl:grid-cols-2">
        <div className="min-w-0">
          <Markdown source={op.description} className="text-sm text-slate-700" />
          {op.parameters.length > 0 ? (
            <>
              <h4 className="mt-5 text-sm font-semibold">Parameters</h4>
              <Parameters parameters={op.parameters} />
            </>
          ) : null}
          {body ? (
            <>
              <h4 className="mt-5 text-sm font-semibold">
                Request body{' '}
                <span className="font-normal text-slate-600">
                  (JSON{op.requestBody?.required ? ', required' : ''}) — {typeOf(body)}
                </span>
              </h4>
              <PropertyList schema={op.requestBody?.resolved ?? body} />
            </>
          ) : null}
          <h4 className="mt-5 text-sm font-semibold">Responses</h4>
          <dl className="divide-y divide-slate-100 text-sm">
            {op.responses.map((response) => (
              <div key={response.status} className="flex gap-3 py-2">
                <dt
                  className={`shrink-0 font-mono font-semibold ${response.status.startsWith('2') ? 'text-green-800' : 'text-slate-800'}`}
                >
                  {response.status}
                </dt>
                <dd className="min-w-0 text-slate-700">
                  <Markdown source={response.description} inline />
                  {response.schema && response.status.startsWith('2') ? (
                    <span className="text-slate-600"> — {typeOf(response.schema)}</span>
                  ) : null}
                </dd>
              </div>
            ))}
          </dl>
        </div>
        <div className="min-w-0 space-y-3">
          <CodeBlock title={`${op.summary}: curl`} code={op.examples.curl} testId="example-curl" />
          {op.examples.sdk ? (
            <CodeBlock title={`${op.summary}: Node.js SDK`} code={op.examples.sdk} testId="example-sdk" />
          ) : null}
          {op.examples.response ? (
            <CodeBlock
              title={`${op.summary}: response ${op.examples.response.status}`}
              code={JSON.stringify(op.examples.response.body, null, 2)}
              testId="example-response"
            />
          ) : null}
        </div>
      </div>
    </article>
  );
}

export default function DocsPage() {
  const reference = apiReference();
  return (
    <div className="min-h-screen">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:rounded focus:bg-white focus:px-3 focus:py-2"
      >
        Skip to the reference
      </a>
      <header className="border-b border-slate-200 bg-white">
        <div className="mx-auto flex max-w-7xl flex-wrap items-center justify-between gap-x-6 gap-y-2 px-4 py-3 text-sm">
          <Link href="/" className="font-semibold text-indigo-700 underline">
            ← Portal
          </Link>
          <nav aria-label="Documentation" className="flex flex-wrap gap-x-4 gap-y-1">
            <a href={ERRORS_PAGE_PATH} className="text-indigo-700 underline">
              Errors
            </a>
            <Link href="/docs/versioning" className="text-indigo-700 underline">
              Versioning
            </Link>
            <a href={OPENAPI_PATH} className="text-indigo-700 underline">
              OpenAPI (JSON)
            </a>
          </nav>
        </div>
      </header>
      <div className="mx-auto max-w-7xl gap-8 px-4 lg:grid lg:grid-cols-[13rem_minmax(0,1fr)]">
        <nav aria-label="Contents" className="py-6 text-sm lg:sticky lg:top-0 lg:max-h-screen lg:overflow-y-auto">
          <h2 className="font-semibold">Contents</h2>
          <ul className="mt-2 space-y-3">
            {reference.sections.map((section) => (
              <li key={section.tag}>
                <a
                  href={`#tag-${section.tag.replace(/\W+/g, '-')}`}
                  className="font-medium text-slate-900 underline decoration-slate-300"
                >
                  {section.tag}
                </a>
                <ul className="mt-1 space-y-1 border-l border-slate-200 pl-3">
                  {section.operations.map((op) => (
                    <li key={op.id}>
                      <a href={`#${op.id}`} className="text-indigo-700 hover:underline">
                        {op.summary}
                      </a>
                    </li>
                  ))}
                </ul>
              </li>
            ))}
            <li>
              <a href="#webhook-events" className="font-medium text-slate-900 underline decoration-slate-300">
                Webhook events
              </a>
            </li>
            <li>
              <a href="#schemas" className="font-medium text-slate-900 underline decoration-slate-300">
                Schemas
              </a>
            </li>
          </ul>
        </nav>
        <main id="main" className="min-w-0 space-y-10 py-6">
          <div>
            <h1 className="text-3xl font-bold tracking-tight">{reference.title}</h1>
            <p className="mt-1 text-sm text-slate-600">
              Version {reference.version} · Base URL <code className="break-all font-mono">{reference.serverUrl}</code>
            </p>
            <Markdown
              source={reference.description}
              className="mt-4 max-w-3xl text-sm leading-relaxed text-slate-800"
            />
          </div>
          {reference.sections.map((section) => (
            <section
              key={section.tag}
              id={`tag-${section.tag.replace(/\W+/g, '-')}`}
              aria-labelledby={`tag-${section.tag.replace(/\W+/g, '-')}-title`}
              className="scroll-mt-4 space-y-4"
            >
              <div>
                <h2 id={`tag-${section.tag.replace(/\W+/g, '-')}-title`} className="text-2xl font-semibold">
                  {section.tag}
                </h2>
                {section.description ? (
                  <Markdown source={section.description} className="mt-1 text-sm text-slate-700" />
                ) : null}
              </div>
              {section.operations.map((op) => (
                <Operation key={op.id} op={op} />
              ))}
            </section>
          ))}
          <section id="webhook-events" aria-labelledby="webhook-events-title" className="scroll-mt-4 space-y-4">
            <h2 id="webhook-events-title" className="text-2xl font-semibold">
              Webhook events
            </h2>
            <p className="text-sm text-slate-700">
              Each is a signed POST of an{' '}
              <a href="#schema-Event" className="text-indigo-700 underline">
                Event
              </a>{' '}
              to your endpoints (add them in the portal under Webhooks).
            </p>
            <dl className="divide-y divide-slate-100 rounded-lg bg-white px-4 shadow-sm ring-1 ring-slate-200 sm:px-6">
              {reference.webhooks.map((hook) => (
                <div key={hook.type} className="py-3">
                  <dt>
                    <code className="font-mono text-sm font-semibold">{hook.type}</code>
                  </dt>
                  <dd className="mt-1 text-sm text-slate-700">
                    <Markdown source={hook.description} inline />
                  </dd>
                </div>
              ))}
            </dl>
          </section>
          <section id="schemas" aria-labelledby="schemas-title" className="scroll-mt-4 space-y-4">
            <h2 id="schemas-title" className="text-2xl font-semibold">
              Schemas
            </h2>
            {reference.schemas.map(({ name, schema }) => (
              <section
                key={name}
                id={`schema-${name}`}
                aria-labelledby={`schema-${name}-title`}
                className="scroll-mt-4 rounded-lg bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-6"
              >
                <h3 id={`schema-${name}-title`} className="text-base font-semibold">
                  {name}
                </h3>
                {typeof schema.description === 'string' ? (
                  <Markdown source={schema.description} className="mt-1 text-sm text-slate-700" />
                ) : null}
                <PropertyList schema={schema} />
              </section>
            ))}
          </section>
        </main>
      </div>
    </div>
  );
}
