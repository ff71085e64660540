/**
 * The hosted payment page's Content-Security-Policy (SPEC §8), scoped to /pay so the portal's own policy stays
 * separate. Scripts only with this response's nonce (Next.js reads it from the request's CSP header and puts it
 * on its own scripts; 'strict-dynamic' lets them load the chunks); styles from our origin (the Tailwind sheet)
 * plus nonce; the page only fetches its own status endpoint; no frames, no plugins, no base or form tricks.
 */
export function payContentSecurityPolicy(nonce: string): string {
  return [
    "default-src 'none'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'`,
    `style-src 'self' 'nonce-${nonce}'`,
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}
