import { randomBytes } from 'node:crypto';

/**
 * The browser-facing security headers, decided from configuration only (never from X-Forwarded-Proto or
 * Host). Set by the app's HTTP server (scripts/server.ts) on every response it sends, so they cover portal
 * pages, server actions and next-auth's own pages under /api/auth/* alike. next.config.js `headers()` cannot
 * do this: it is frozen at build time, and PUBLIC_URL is runtime configuration.
 */
export interface SecurityHeaderOptions {
  /** PUBLIC_URL is https: send HSTS and upgrade-insecure-requests. */
  https: boolean;
  /** `next dev` needs eval for React's development tooling. */
  dev: boolean;
  /** Extra origins a form may post to (an OAuth provider's authorization page, reached by redirect). */
  formActionOrigins?: readonly string[];
}

/** A fresh nonce per response: Next reads it back from the request's CSP header and stamps its own scripts. */
export function newNonce(): string {
  return randomBytes(16).toString('base64');
}

export function contentSecurityPolicy(nonce: string, options: SecurityHeaderOptions): string {
  const directives = [
    "default-src 'self'",
    // 'strict-dynamic': scripts loaded by a nonced script (Next's chunk loader) are trusted; nothing else.
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${options.dev ? " 'unsafe-eval'" : ''}`,
    // React writes style attributes; styles cannot run code, so inline styles are allowed.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self'",
    `connect-src 'self'${options.dev ? ' ws: wss:' : ''}`,
    "object-src 'none'",
    "base-uri 'self'",
    `form-action 'self'${options.formActionOrigins?.length ? ` ${options.formActionOrigins.join(' ')}` : ''}`,
    "frame-ancestors 'none'",
  ];
  if (options.https) directives.push('upgrade-insecure-requests');
  return directives.join('; ');
}

/** Headers for every browser-facing response (CSP included); HSTS on every response when https. */
export function securityHeaders(nonce: string, options: SecurityHeaderOptions): Record<string, string> {
  return {
    'Content-Security-Policy': contentSecurityPolicy(nonce, options),
    'X-Frame-Options': 'DENY',
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'same-origin',
    'Permissions-Policy': 'camera=(), microphone=(), geolocation=(), payment=(), usb=()',
    'Cross-Origin-Opener-Policy': 'same-origin',
    ...(options.https ? { 'Strict-Transport-Security': 'max-age=63072000; includeSubDomains' } : {}),
  };
}
