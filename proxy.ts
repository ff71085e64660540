import { problemResponse } from '@/lib/api/problem';
import { newRequestId } from '@/lib/api/request-id';

/**
 * Next.js decodes the path parameters of a dynamic route before any route handler runs, and answers a
 * malformed percent-encoding (`/v1/invoices/%E0%A4%A`, `/v1/%`) with a bare text/plain 500. Such a path
 * names no route: answer it here with the same 404 problem as any unknown /v1 route.
 *
 * The matcher only selects /v1 paths that contain a `%`, so ordinary requests never enter the proxy.
 */
export function proxy(request: Request): Response | undefined {
  const { pathname } = new URL(request.url);
  try {
    decodeURIComponent(pathname);
    return undefined;
  } catch {
    // Only the problem module: the proxy bundle stays free of the database and authentication code.
    return problemResponse(
      'route_not_found',
      'No route matches this path: it is not valid percent-encoding. See /v1/openapi.json',
      newRequestId(),
    );
  }
}

export const config = {
  matcher: ['/v1/:path(.*%.*)'],
};
