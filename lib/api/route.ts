import { errorResponse, withApiKey, type RouteHandler } from './handler';
import type { AnyEndpoint } from './endpoint';
import { AppError } from '../errors';
import { newRequestId } from './request-id';
import { buildOpenApiDocument } from './openapi';

const ROUTE_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
type RouteMethod = (typeof ROUTE_METHODS)[number];

/**
 * The exports of one /v1 route file: each endpoint's method through withApiKey, every other method a
 * 405 problem with an Allow header.
 */
export function apiRoute(...endpoints: AnyEndpoint[]): Record<RouteMethod, RouteHandler> {
  const allow = endpoints.map((endpoint) => endpoint.method).join(', ');
  const handlers = {} as Record<RouteMethod, RouteHandler>;
  for (const method of ROUTE_METHODS) {
    const endpoint = endpoints.find((candidate) => candidate.method === method);
    handlers[method] = endpoint ? withApiKey(endpoint) : methodNotAllowed(method, allow);
  }
  return handlers;
}

function methodNotAllowed(method: RouteMethod, allow: string): RouteHandler {
  return async () =>
    errorResponse(new AppError('method_not_allowed', `${method} is not allowed here. Allowed: ${allow}`, { headers: { Allow: allow } }), newRequestId());
}

/** Any path under /v1 that names no operation. */
export function unknownRoute(): Record<RouteMethod, RouteHandler> {
  const handler: RouteHandler = async (request) =>
    errorResponse(new AppError('route_not_found', `No route ${new URL(request.url).pathname}. See /v1/openapi.json`), newRequestId());
  return Object.fromEntries(ROUTE_METHODS.map((method) => [method, handler])) as Record<RouteMethod, RouteHandler>;
}

/** GET /v1/openapi.json: public (no key, not counted), built once per process. */
export function openApiRoute(): Record<RouteMethod, RouteHandler> {
  let document: string | undefined;
  const handlers = {} as Record<RouteMethod, RouteHandler>;
  for (const method of ROUTE_METHODS) {
    handlers[method] =
      method === 'GET'
        ? async () => {
            document ??= JSON.stringify(buildOpenApiDocument());
            return new Response(document, {
              headers: { 'Content-Type': 'application/json', 'Cache-Control': 'public, max-age=300', 'Request-Id': newRequestId() },
            });
          }
        : methodNotAllowed(method, 'GET');
  }
  return handlers;
}
