import { z } from 'zod';
import { isAppError, type ErrorCode } from '../errors';
import { can, ROLE_LABELS, type Permission } from '../teams/roles';
import { currentUser, requirePortalContext, type PortalContext } from './context';

/** What every portal server action returns to its form: data, or a message (and per-field messages). */
export type ActionResult<T> =
  { ok: true; data: T } | { ok: false; error: string; code?: ErrorCode; fieldErrors?: Record<string, string> };

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
  const digest =
    typeof error === 'object' && error !== null && 'digest' in error
      ? String((error as { digest: unknown }).digest)
      : '';
  return (
    digest.startsWith('NEXT_REDIRECT') || digest.startsWith('NEXT_NOT_FOUND') || digest.startsWith('NEXT_HTTP_ERROR')
  );
}

/**
 * What an action needs, from the role table (lib/teams/roles.ts). `permission` is checked before the form is even
 * read; `forInput` (optional) names a stricter permission from the validated input, e.g. live keys for a live
 * key. Actions on an existing record whose environment decides (roll a live key) check it again in the domain
 * function, inside its transaction (assertCan in lib/portal/context.ts).
 */
export interface ActionRule<I> {
  permission: Permission;
  forInput?: (input: I) => Permission;
}

/** What the permission matrix test reads from every exported action: the rule it was declared with. */
export interface DeclaredRule {
  permission: Permission | 'signed_in';
}

type FormAction<T> = ((previous: ActionState<T>, formData: FormData) => Promise<ActionResult<T>>) & {
  rule: DeclaredRule;
};

function refused(role: keyof typeof ROLE_LABELS): ActionResult<never> {
  return {
    ok: false,
    code: 'role_forbidden',
    error: `Your role (${ROLE_LABELS[role]}) does not allow this. Ask an Owner or Admin of the workspace.`,
  };
}

function declare<T>(
  fn: (previous: ActionState<T>, formData: FormData) => Promise<ActionResult<T>>,
  rule: DeclaredRule,
): FormAction<T> {
  return Object.assign(fn, { rule });
}

async function run<S extends z.ZodType, T>(
  schema: S,
  formData: FormData,
  arrays: readonly string[],
  handler: (input: z.output<S>) => Promise<T | ActionResult<T>>,
  refusal?: (input: z.output<S>) => ActionResult<T> | null,
): Promise<ActionResult<T>> {
  const parsed = schema.safeParse(formToObject(formData, arrays));
  if (!parsed.success) {
    const fieldErrors = fieldErrorsOf(parsed.error);
    return { ok: false, error: Object.values(fieldErrors)[0] ?? 'Invalid input', fieldErrors };
  }
  const refusedForInput = refusal?.(parsed.data);
  if (refusedForInput) return refusedForInput;
  try {
    return { ok: true, data: (await handler(parsed.data)) as T };
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
}

/**
 * The one wrapper for portal server actions: on the server, every call
 *  1. re-reads the session (the session row must be live), the session's workspace and the user's role in it
 *     (lib/portal/context.ts) — the workspace is never taken from the form;
 *  2. refuses (role_forbidden) unless the role has the action's permission (the role table, whatever the form
 *     says or the page showed);
 *  3. validates the form with zod (ids from forms are data to check, never authority), then checks the
 *     input's permission when the rule has one;
 *  4. runs the handler with the context from step 1;
 *  5. maps AppError (and validation errors) to form messages; anything else becomes a generic message.
 */
export function withWorkspace<S extends z.ZodType, T>(
  rule: ActionRule<z.output<S>>,
  schema: S,
  handler: (ctx: PortalContext, input: z.output<S>) => Promise<T>,
  options: { arrays?: readonly string[] } = {},
): FormAction<T> {
  return declare(
    async (_previous, formData) => {
      const ctx = await requirePortalContext();
      if (!can(ctx.role, rule.permission)) return refused(ctx.role);
      return run(
        schema,
        formData,
        options.arrays ?? [],
        (input) => handler(ctx, input),
        (input) => (rule.forInput && !can(ctx.role, rule.forInput(input)) ? refused(ctx.role) : null),
      );
    },
    { permission: rule.permission },
  );
}

/**
 * For the few actions of a signed-in person outside any workspace (creating a workspace, switching, accepting
 * an invitation): the session is re-read; no role applies.
 */
export function withSignedInUser<S extends z.ZodType, T>(
  schema: S,
  handler: (user: { userId: string; email: string; sessionId: string }, input: z.output<S>) => Promise<T>,
): FormAction<T> {
  return declare(
    async (_previous, formData) => {
      const user = await currentUser();
      if (!user) return { ok: false, code: 'not_found', error: 'Your session has ended. Sign in again.' };
      return run(schema, formData, [], (input) => handler(user, input));
    },
    { permission: 'signed_in' },
  );
}
