'use server';

import { getServerSession } from 'next-auth';
import { headers } from 'next/headers';
import { z } from 'zod';
import { authOptions } from '@/lib/auth/next-auth';
import { completeOAuthSecondFactor } from '@/lib/auth/oauth-second-factor';
import { isAppError } from '@/lib/errors';
import { clientAddress } from '@/lib/http/client-address';

const Code = z.object({
  code: z.string().trim().min(1, 'Enter the code from your authenticator app').max(64, 'That is not a code'),
});

export type CodeResult = { ok: true } | { ok: false; error: string };

/** The second step of a GitHub sign-in with two-factor on: the code turns the waiting session into a live one. */
export async function completeSignInCode(_previous: CodeResult | null, formData: FormData): Promise<CodeResult> {
  const session = await getServerSession(authOptions());
  const pending = session?.secondFactorPending;
  if (!pending) return { ok: false, error: 'This sign-in has expired. Sign in again.' };
  const parsed = Code.safeParse({ code: formData.get('code') ?? '' });
  if (!parsed.success) return { ok: false, error: parsed.error.issues[0]?.message ?? 'Enter the code' };
  try {
    const ip = clientAddress((await headers()).get('x-forwarded-for'));
    await completeOAuthSecondFactor({
      sessionId: pending.sid,
      userId: pending.userId,
      code: parsed.data.code,
      ip,
      email: pending.email,
    });
    return { ok: true };
  } catch (error) {
    if (isAppError(error)) return { ok: false, error: error.message };
    return { ok: false, error: 'Something went wrong. Please try again.' };
  }
}
