import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { portalSignIn } from './portal-sign-in';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const require = createRequire(import.meta.url);

/**
 * Server actions called over HTTP exactly as the browser calls them: the action's id from the build's
 * server-reference manifest (every action the build contains, with its file and export name), the arguments
 * encoded by React's own encodeReply, POSTed with the Next-Action header to a page that uses it.
 */
export interface BuiltAction {
  id: string;
  /** e.g. app/(portal)/keys/actions.ts */
  filename: string;
  exportedName: string;
  /** A page path whose bundle holds the action, e.g. /keys. */
  page: string;
}

type Manifest = { node: Record<string, { workers: Record<string, unknown>; filename: string; exportedName: string }> };

/** `app/(portal)/invoices/[id]/page` → `/invoices/x`: route groups dropped, parameters filled with a placeholder. */
function pagePath(worker: string): string {
  const segments = worker
    .replace(/^app\//, '')
    .replace(/\/?page$/, '')
    .split('/')
    .filter(Boolean);
  const parts = segments.filter((s) => !/^\(.*\)$/.test(s)).map((s) => (s.startsWith('[') ? 'x' : s));
  return `/${parts.join('/')}`;
}

export function builtActions(): BuiltAction[] {
  const manifest = JSON.parse(
    readFileSync(path.join(ROOT, '.next', 'server', 'server-reference-manifest.json'), 'utf8'),
  ) as Manifest;
  return Object.entries(manifest.node).map(([id, entry]) => {
    const workers = Object.keys(entry.workers).filter((w) => w.endsWith('/page'));
    // A page without parameters when there is one (it renders without data).
    const worker = workers.find((w) => !w.includes('[')) ?? workers[0] ?? 'app/page';
    return { id, filename: entry.filename, exportedName: entry.exportedName, page: pagePath(worker) };
  });
}

type EncodeReply = (value: unknown) => Promise<string | FormData>;
const { encodeReply } = require('next/dist/compiled/react-server-dom-turbopack/client.node') as {
  encodeReply: EncodeReply;
};

export interface ActionCall {
  status: number;
  /** The RSC answer as text: the action's result is JSON inside it. */
  text: string;
  refused: boolean;
}

/** Calls a form action (previousState, formData) as useActionState does, with the session's cookies. */
export async function callAction(
  base: string,
  action: BuiltAction,
  cookie: string,
  fields: Record<string, string> = {},
): Promise<ActionCall> {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  const body = await encodeReply([null, form]);
  const response = await fetch(`${base}${action.page}`, {
    method: 'POST',
    redirect: 'manual',
    headers: { cookie, 'next-action': action.id, accept: 'text/x-component', origin: base },
    body,
  });
  const text = await response.text();
  return { status: response.status, text, refused: text.includes('"code":"role_forbidden"') };
}

/** Signs in through next-auth as the portal does; returns the Cookie header of the session. */
export async function sessionCookie(base: string, email: string, password: string): Promise<string> {
  const result = await portalSignIn(base, email, password);
  if (result.outcome !== 'ok') throw new Error(`sign-in failed for ${email}: ${result.outcome}`);
  return result.cookies.map((c) => c.split(';')[0]).join('; ');
}

/** The route of a portal page file: app/(portal)/invoices/[id]/page.tsx → /invoices/[id]. */
export function routeOf(pageFile: string): string {
  const parts = pageFile
    .split('/')
    .slice(0, -1)
    .filter((s) => !/^\(.*\)$/.test(s));
  return `/${parts.join('/')}`;
}
