'use server';

import { headers } from 'next/headers';
import { z } from 'zod';
import { signUpFromPortal } from '@/lib/auth/signup';
import { isAppError } from '@/lib/errors';
import { clientAddress } from '@/lib/http/client-address';
import { SignUpInput } from '@/lib/workspaces/workspaces';

export type SignUpResult = { ok: true } | { ok: false; error: string; fieldErrors?: Record<string, string> };

const SignUpForm = z.object({
  email: z.string(),
  password: z.string(),
  workspaceName: z
    .string()
    .trim()
    .transform((value) => value || undefined),
});

/**
 * Creates the user and their workspace (lib/auth/signup.ts), or — for an email that already has an account —
 * nothing, with the same answer. The password is never sent back.
 */
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
    await signUpFromPortal(input.data, clientAddress((await headers()).get('x-forwarded-for')));
    return { ok: true };
  } catch (error) {
    if (isAppError(error)) return { ok: false, error: error.message };
    console.error('[sign up] unexpected error', error instanceof Error ? error.message : error);
    return { ok: false, error: 'Something went wrong. Please try again.' };
  }
}
