import type { Metadata } from 'next';
import Link from 'next/link';
import type { ReactNode } from 'react';
import { buildOpenApiDocument, OPENAPI_PATH } from '@/lib/api/openapi';

export const metadata: Metadata = { title: 'API reference' };

/**
 * The API reference, rendered on the server from the same builder as /v1/openapi.json: no script, no CDN,
 * readable offline and always in step with the API. Public (it documents the public API, no workspace data).
 */
type Json = Record<string, unknown>;
const asJson = (value: unknown): Json => (value && typeof value === 'object' ? (value as Json) : {});
const METHOD_TONE: Record<string, string> = {
  get: 'bg-blue-50 text-blue-800 ring-blue-600/30',
  post: 'bg-green-50 text-green-800 ring-green-600/30',
};

function refName(schema: Json): string | null {
  return typeof schema.$ref === 'string' ? schema.$ref.split('/').at(-1) ?? null : null;
}

/** A schema's type in one short phrase: `string`, `"a" | "b"`, `Invoice`, `array of Invoice`. */
function typeOf(schemaValue: unknown): ReactNode {
  const schema = asJson(schemaValue);
  const ref = refName(schema);
  if (ref) return <a href={`#schema-${ref}`} className="text-indigo-700 underline">{ref}</a>;
  if (Array.isArray(schema.enum)) return schema.enum.map((v) => JSON.stringify(v)).join(' | ');
  if (Array.isArray(schema.anyOf)) {
    return schema.anyOf.map((s, i) => <span key={i}>{i > 0 ? ' | ' : ''}{typeOf(s)}</span>);
  }
  if (schema.type === 'array') return <>array of {typeOf(schema.items)}</>;
  if (Array.isArray(schema.type)) return schema.type.join(' | ');
  return typeof schema.type === 'string' ? schema.type : 'any';
}

function PropertyTable({ schema }: { schema: Json }) {
  const properties = Object.entries(asJson(schema.properties));
  if (properties.length === 0) return <p className="text-sm">{typeOf(schema)}</p>;
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  return (
    <dl className="divide-y divide-slate-100 text-sm">
      {properties.map(([name, value]) => {
        const prop = asJson(value);
        return (
          <div key={name} className="py-2">
            <dt className="flex flex-wrap items-baseline gap-x-2">
              <code className="break-all font-mono font-semibold">{name}</code>
              <span className="break-words text-xs text-slate-600">{typeOf(prop)}</span>
              {required.has(name) ? <span className="text-xs text-red-700">required</span> : null}
            </dt>
            {typeof prop.description === 'string' ? <dd className="mt-1 text-slate-700">{prop.description}</dd> : null}
          </div>
        );
      })}
    </dl>
  );
}

function Operation({ method, path, op }: { method: string; path: string; op: Json }) {
  const parameters = (Array.isArray(op.parameters) ? op.parameters : []).map(asJson);
  const body = asJson(asJson(asJson(asJson(op.requestBody).content)['application/json']).schema);
  const responses = Object.entries(asJson(op.responses));
  return (
    <section id={String(op.operationId ?? `${method}-${path}`)} className="rounded-lg bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-6">
      <h3 className="flex flex-wrap items-center gap-2 text-base font-semibold">
        <span className={`rounded px-2 py-0.5 font-mono text-xs uppercase ring-1 ring-inset ${METHOD_TONE[method] ?? 'bg-slate-100 ring-slate-300'}`}>{method}</span>
        <code className="break-all font-mono">{path}</code>
      </h3>
      <p className="mt-1 font-medium">{String(op.summary ?? '')}</p>
      {typeof op.description === 'string' ? <p className="mt-2 whitespace-pre-line text-sm text-slate-700">{op.description}</p> : null}
      {parameters.length > 0 ? (
        <>
          <h4 className="mt-4 text-sm font-semibold">Parameters</h4>
          <dl className="divide-y divide-slate-100 text-sm">
            {parameters.map((p) => (
              <div key={`${String(p.in)}-${String(p.name)}`} className="py-2">
                <dt className="flex flex-wrap items-baseline gap-x-2">
                  <code className="break-all font-mono font-semibold">{String(p.name)}</code>
                  <span className="text-xs text-slate-600">
                    {String(p.in)} · {typeOf(p.schema)}
                  </span>
                  {p.required ? <span className="text-xs text-red-700">required</span> : null}
                </dt>
                {typeof p.description === 'string' ? <dd className="mt-1 text-slate-700">{p.description}</dd> : null}
              </div>
            ))}
          </dl>
        </>
      ) : null}
      {Object.keys(body).length > 0 ? (
        <>
          <h4 className="mt-4 text-sm font-semibold">Request body (JSON)</h4>
          <PropertyTable schema={body} />
        </>
      ) : null}
      <h4 className="mt-4 text-sm font-semibold">Responses</h4>
      <ul className="mt-1 space-y-1 text-sm">
        {responses.map(([status, value]) => {
          const response = asJson(value);
          const schema = asJson(asJson(asJson(response.content)['application/json']).schema);
          return (
            <li key={status} className="break-words">
              <code className="font-mono font-semibold">{status}</code> {String(response.description ?? '')}
              {Object.keys(schema).length > 0 ? <span className="text-slate-600"> — {typeOf(schema)}</span> : null}
            </li>
          );
        })}
      </ul>
    </section>
  );
}

export default function DocsPage() {
  const document = buildOpenApiDocument();
  const schemas = Object.entries(asJson(document.components.schemas));
  return (
    <div className="min-h-screen">
      <header className="border-b border-slate-200 bg-white">
        <div className="mx-auto flex max-w-4xl flex-wrap items-center justify-between gap-3 px-4 py-3 text-sm">
          <Link href="/" className="font-semibold text-indigo-700 underline">
            ← Portal
          </Link>
          <a href={OPENAPI_PATH} className="font-semibold text-indigo-700 underline">
            OpenAPI document (JSON)
          </a>
        </div>
      </header>
      <main id="main" className="mx-auto max-w-4xl space-y-6 px-4 py-6">
        <div>
          <h1 className="text-2xl font-bold tracking-tight">{document.info.title}</h1>
          <p className="text-sm text-slate-600">Version {document.info.version}</p>
          <div className="mt-3 space-y-2 text-sm text-slate-700">
            {document.info.description.split('\n\n').map((paragraph) => (
              <p key={paragraph}>{paragraph}</p>
            ))}
          </div>
        </div>
        <nav aria-label="Contents" className="rounded-lg bg-white p-4 ring-1 ring-slate-200">
          <h2 className="text-sm font-semibold">Contents</h2>
          <ul className="mt-2 space-y-1 text-sm">
            {Object.entries(document.paths).flatMap(([path, ops]) =>
              Object.entries(ops).map(([method, op]) => (
                <li key={`${method} ${path}`} className="break-all">
                  <a href={`#${String(asJson(op).operationId)}`} className="text-indigo-700 underline">
                    <span className="font-mono uppercase">{method}</span> <span className="font-mono">{path}</span>
                  </a>{' '}
                  — {String(asJson(op).summary ?? '')}
                </li>
              )),
            )}
          </ul>
        </nav>
        <section aria-labelledby="endpoints-title" className="space-y-4">
          <h2 id="endpoints-title" className="text-xl font-semibold">
            Endpoints
          </h2>
          {Object.entries(document.paths).flatMap(([path, ops]) =>
            Object.entries(ops).map(([method, op]) => <Operation key={`${method} ${path}`} method={method} path={path} op={asJson(op)} />),
          )}
        </section>
        <section aria-labelledby="schemas-title" className="space-y-4">
          <h2 id="schemas-title" className="text-xl font-semibold">
            Schemas
          </h2>
          {schemas.map(([name, schema]) => (
            <section key={name} id={`schema-${name}`} className="rounded-lg bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-6">
              <h3 className="text-base font-semibold">{name}</h3>
              <PropertyTable schema={asJson(schema)} />
            </section>
          ))}
        </section>
      </main>
    </div>
  );
}
