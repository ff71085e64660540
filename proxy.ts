import { NextResponse } from 'next/server';
import { problemResponse } from '@/lib/api/problem';
import { newRequestId } from '@/lib/api/request-id';
import { payContentSecurityPolicy } from '@/lib/http/pay-csp';

/**
 * Two jobs, each on its own paths:
 *
 * /v1 paths containing a `%`: Next.js decodes the path parameters of a dynamic route before any route handler
 * runs, and answers a malformed percent-encoding (`/v1/invoices/%E0%A4%A`, `/v1/%`) with a bare text/plain 500.
 * Such a path names no route: answer it here with the same 404 problem as any unknown /v1 route.
 *
 * /pay/*: the hosted payment page's strict Content-Security-Policy with a fresh nonce per response (set on the
 * request too, where Next.js reads the nonce for its own scripts), plus noindex.
 */
export function proxy(request: Request): Response | undefined {
  const { pathname } = new URL(request.url);
  if (pathname.startsWith('/pay/')) return withPayPolicy(request);
  try {
    decodeURIComponent(pathname);
    return undefined;
  } catch {
    // Only the problem module: the proxy bundle stays free of the database and authentication code.
    return problemResponse('route_not_found', 'No route matches this path: it is not valid percent-encoding. See /v1/openapi.json', newRequestId());
  }
}

function withPayPolicy(request: Request): Response {
  const nonce = Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString('base64');
  const policy = payContentSecurityPolicy(nonce);
  const requestHeaders = new Headers(request.headers);
  requestHeaders.set('content-security-policy', policy);
  requestHeaders.set('x-nonce', nonce);
  const response = NextResponse.next({ request: { headers: requestHeaders } });
  response.headers.set('Content-Security-Policy', policy);
  response.headers.set('X-Robots-Tag', 'noindex, nofollow');
  return response;
}

export const config = {
  matcher: ['/v1/:path(.*%.*)', '/pay/:path*'],
};
