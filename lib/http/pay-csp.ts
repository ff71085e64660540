import type { SecurityHeaderOptions } from './security-headers';

/**
 * The hosted payment page's Content-Security-Policy (docs/hosted-page.md), stricter than the portal's
 * (security-headers.ts), set by scripts/server.ts on /pay/* with the same per-response nonce: scripts only with
 * the nonce ('strict-dynamic' lets Next's loader fetch its chunks); styles from our origin (the Tailwind sheet)
 * plus nonce, no inline styles; the page only fetches its own status endpoint; no frames, objects, base or
 * foreign form targets.
 */
export function payContentSecurityPolicy(nonce: string, options: Pick<SecurityHeaderOptions, 'https' | 'dev'>): string {
  const directives = [
    "default-src 'none'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${options.dev ? " 'unsafe-eval'" : ''}`,
    `style-src 'self' 'nonce-${nonce}'${options.dev ? " 'unsafe-inline'" : ''}`,
    "img-src 'self' data:",
    "font-src 'self'",
    `connect-src 'self'${options.dev ? ' ws: wss:' : ''}`,
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ];
  if (options.https) directives.push('upgrade-insecure-requests');
  return directives.join('; ');
}
