import { z } from 'zod';
import { isAppError, type ErrorCode } from '../errors';
import { requirePortalContext, type PortalContext } from './context';

/** What every portal server action returns to its form: data, or a message (and per-field messages). */
export type ActionResult<T> =
  | { ok: true; data: T }
  | { ok: false; error: string; code?: ErrorCode; fieldErrors?: Record<string, string> };

export type ActionState<T> = ActionResult<T> | null;

function formToObject(formData: FormData, arrays: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const name of arrays) out[name] = [];
  for (const [name, value] of formData.entries()) {
    if (name.startsWith('$') || typeof value !== 'string') continue; // Next's own fields, files
    if (arrays.includes(name)) (out[name] as string[]).push(value);
    else out[name] = value;
  }
  return out;
}

function fieldErrorsOf(error: z.ZodError): Record<string, string> {
  const out: Record<string, string> = {};
  for (const issue of error.issues) {
    const path = issue.path.join('.') || 'form';
    out[path] ??= issue.message;
  }
  return out;
}

function isNextControlFlow(error: unknown): boolean {
  const digest = typeof error === 'object' && error !== null && 'digest' in error ? String((error as { digest: unknown }).digest) : '';
  return digest.startsWith('NEXT_REDIRECT') || digest.startsWith('NEXT_NOT_FOUND') || digest.startsWith('NEXT_HTTP_ERROR');
}

/**
 * The one wrapper for portal server actions: on the server, every call
 *  1. re-reads the session (the session row must be live) and the user's membership of the workspace;
 *  2. validates the form with zod (ids from forms are data to check, never authority);
 *  3. runs the handler with the workspace from step 1;
 *  4. maps AppError (and validation errors) to form messages; anything else becomes a generic message.
 */
export function withWorkspace<S extends z.ZodType, T>(
  schema: S,
  handler: (ctx: PortalContext, input: z.output<S>) => Promise<T>,
  options: { arrays?: readonly string[] } = {},
): (previous: ActionState<T>, formData: FormData) => Promise<ActionResult<T>> {
  return async (_previous, formData) => {
    const ctx = await requirePortalContext();
    const parsed = schema.safeParse(formToObject(formData, options.arrays ?? []));
    if (!parsed.success) {
      const fieldErrors = fieldErrorsOf(parsed.error);
      return { ok: false, error: Object.values(fieldErrors)[0] ?? 'Invalid input', fieldErrors };
    }
    try {
      return { ok: true, data: await handler(ctx, parsed.data) };
    } catch (error) {
      if (isNextControlFlow(error)) throw error;
      if (isAppError(error)) {
        const fieldErrors = error.errors ? Object.fromEntries(error.errors.map((e) => [e.path, e.message])) : undefined;
        return { ok: false, error: error.message, code: error.code, fieldErrors };
      }
      if (error instanceof z.ZodError) {
        const fieldErrors = fieldErrorsOf(error);
        return { ok: false, error: Object.values(fieldErrors)[0] ?? 'Invalid input', fieldErrors };
      }
      console.error('[portal action] unexpected error', error instanceof Error ? (error.stack ?? error.message) : error);
      return { ok: false, error: 'Something went wrong. Please try again.' };
    }
  };
}
