/** The Set-Cookie headers of a response. */
export function setCookies(response: Response): string[] {
  return response.headers.getSetCookie();
}

export type SignInOutcome = 'ok' | 'invalid' | 'throttled' | 'code_required' | 'code_invalid';

/**
 * A credentials sign-in exactly as the portal's form makes it (next-auth's csrf round trip, then the callback),
 * with the two-factor code when given. The outcome is read from the error next-auth puts in the answer's URL.
 */
export async function portalSignIn(
  base: string,
  email: string,
  password: string,
  headers: Record<string, string> = {},
  code?: string,
) {
  const csrf = await fetch(`${base}/api/auth/csrf`, { headers });
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const cookie = setCookies(csrf)
    .map((c) => c.split(';')[0])
    .join('; ');
  const response = await fetch(`${base}/api/auth/callback/credentials`, {
    method: 'POST',
    redirect: 'manual',
    headers: { ...headers, cookie, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      email,
      password,
      ...(code === undefined ? {} : { code }),
      csrfToken,
      json: 'true',
      callbackUrl: `${base}/`,
    }),
  });
  const body = (await response.json()) as { url: string };
  const error = new URL(body.url).searchParams.get('error');
  const outcome: SignInOutcome =
    error === null
      ? 'ok'
      : error === 'throttled' || error === 'code_required' || error === 'code_invalid'
        ? error
        : 'invalid';
  return { outcome, url: body.url, csrfCookies: setCookies(csrf), cookies: setCookies(response) };
}
