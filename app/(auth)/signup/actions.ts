'use server';

import { z } from 'zod';
import { isAppError } from '@/lib/errors';
import { createUserWithWorkspace, SignUpInput } from '@/lib/workspaces/workspaces';

export type SignUpResult = { ok: true } | { ok: false; error: string; fieldErrors?: Record<string, string> };

const SignUpForm = z.object({
  email: z.string(),
  password: z.string(),
  workspaceName: z
    .string()
    .trim()
    .transform((value) => value || undefined),
});

/** Creates the user and their workspace (one transaction, in lib). The password is never sent back. */
export async function signUp(formData: FormData): Promise<SignUpResult> {
  const form = SignUpForm.safeParse({
    email: formData.get('email') ?? '',
    password: formData.get('password') ?? '',
    workspaceName: formData.get('workspaceName') ?? '',
  });
  if (!form.success) return { ok: false, error: 'Fill in email and password' };
  const input = SignUpInput.safeParse(form.data);
  if (!input.success) {
    const fieldErrors: Record<string, string> = {};
    for (const issue of input.error.issues) fieldErrors[String(issue.path[0] ?? 'form')] ??= issue.message;
    return { ok: false, error: Object.values(fieldErrors)[0] ?? 'Invalid input', fieldErrors };
  }
  try {
    await createUserWithWorkspace({ email: input.data.email, password: input.data.password, workspaceName: input.data.workspaceName });
    return { ok: true };
  } catch (error) {
    if (isAppError(error)) return { ok: false, error: error.message, fieldErrors: error.code === 'email_taken' ? { email: error.message } : undefined };
    console.error('[sign up] unexpected error', error instanceof Error ? error.message : error);
    return { ok: false, error: 'Something went wrong. Please try again.' };
  }
}
