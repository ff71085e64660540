import { errorResponse, withApiKey, type RouteHandler } from './handler';
import type { AnyEndpoint } from './endpoint';
import { AppError } from '../errors';
import { newRequestId } from './request-id';
import { buildOpenApiDocument } from './openapi';
import { withAccessLog } from './access-log';

const ROUTE_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
type RouteMethod = (typeof ROUTE_METHODS)[number];
/** What a /v1 route file exports. OPTIONS is ours too: Next's automatic answer would list every exported method in Allow. */
type RouteExports = Record<RouteMethod | 'OPTIONS', RouteHandler>;

/** Every /v1 answer, whichever route file gives it, writes its access-log line. */
function logged(handlers: RouteExports): RouteExports {
  return Object.fromEntries(Object.entries(handlers).map(([method, handler]) => [method, withAccessLog(handler)])) as RouteExports;
}

/** OPTIONS: 204 with the methods the path really supports (HEAD is answered by Next from GET). */
function options(allow: string): RouteHandler {
  return async () => new Response(null, { status: 204, headers: { Allow: allow, 'Cache-Control': 'no-store', 'Request-Id': newRequestId() } });
}

/**
 * The exports of one /v1 route file: each endpoint's method through withApiKey, every other method a
 * 405 problem with an Allow header.
 */
export function apiRoute(...endpoints: AnyEndpoint[]): RouteExports {
  const allow = endpoints.map((endpoint) => endpoint.method).join(', ');
  const handlers = { OPTIONS: options(allow) } as RouteExports;
  for (const method of ROUTE_METHODS) {
    const endpoint = endpoints.find((candidate) => candidate.method === method);
    handlers[method] = endpoint ? withApiKey(endpoint) : methodNotAllowed(method, allow);
  }
  return logged(handlers);
}

function methodNotAllowed(method: RouteMethod, allow: string): RouteHandler {
  return async () =>
    errorResponse(new AppError('method_not_allowed', `${method} is not allowed here. Allowed: ${allow}`, { headers: { Allow: allow } }), newRequestId());
}

/** Any path under /v1 that names no operation. */
export function unknownRoute(): RouteExports {
  const handler: RouteHandler = async (request) =>
    errorResponse(new AppError('route_not_found', `No route ${new URL(request.url).pathname}. See /v1/openapi.json`), newRequestId());
  return logged(Object.fromEntries([...ROUTE_METHODS, 'OPTIONS'].map((method) => [method, handler])) as RouteExports);
}

/** GET /v1/openapi.json: public (no key, not counted), built once per process. */
export function openApiRoute(): RouteExports {
  let document: string | undefined;
  const handlers = { OPTIONS: options('GET') } as RouteExports;
  for (const method of ROUTE_METHODS) {
    handlers[method] =
      method === 'GET'
        ? async () => {
            const requestId = newRequestId();
            try {
              document ??= JSON.stringify(buildOpenApiDocument());
            } catch (error) {
              return errorResponse(error, requestId); // a problem document, not Next's bare 500
            }
            return new Response(document, {
              headers: { 'Content-Type': 'application/json', 'Cache-Control': 'public, max-age=300', 'Request-Id': requestId },
            });
          }
        : methodNotAllowed(method, 'GET');
  }
  return logged(handlers);
}
