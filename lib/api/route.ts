import { errorResponse, withApiKey, type RouteHandler } from './handler';
import type { AnyEndpoint } from './endpoint';
import { AppError } from '../errors';
import { newRequestId } from './request-id';

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
    handlers[method] = endpoint
      ? withApiKey(endpoint)
      : async () =>
          errorResponse(new AppError('method_not_allowed', `${method} is not allowed here. Allowed: ${allow}`, { headers: { Allow: allow } }), newRequestId());
  }
  return handlers;
}

/** Any path under /v1 that names no operation. */
export function unknownRoute(): Record<RouteMethod, RouteHandler> {
  const handler: RouteHandler = async (request) =>
    errorResponse(new AppError('route_not_found', `No route ${new URL(request.url).pathname}. See /v1/openapi.json`), newRequestId());
  return Object.fromEntries(ROUTE_METHODS.map((method) => [method, handler])) as Record<RouteMethod, RouteHandler>;
}
