import { errorResponse, withApiKey, type RouteHandler } from './handler';
import type { AnyEndpoint } from './endpoint';
import { AppError } from '../errors';
import { newRequestId } from './request-id';
import { documentedErrors } from './errors-page';
import { buildOpenApiDocument } from './openapi';
import { summarize } from './validation';
import { withAccessLog } from './access-log';
import { metrics } from '../metrics/registry';

const ROUTE_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
type RouteMethod = (typeof ROUTE_METHODS)[number];
/** What a /v1 route file exports. OPTIONS is ours too: Next's automatic answer would list every exported method in Allow. */
type RouteExports = Record<RouteMethod | 'OPTIONS', RouteHandler>;

/**
 * Every /v1 answer, whichever route file gives it, writes its access-log line and is counted for GET /metrics
 * under its route template (never the raw path: ids would make a series per invoice).
 */
function logged(handlers: RouteExports, route: string): RouteExports {
  const { httpRequests } = metrics();
  const counted =
    (method: string, handler: RouteHandler): RouteHandler =>
    async (request, context) => {
      const response = await handler(request, context);
      httpRequests.inc({ route, method, status: String(response.status) });
      return response;
    };
  return Object.fromEntries(
    Object.entries(handlers).map(([method, handler]) => [method, counted(method, withAccessLog(handler))]),
  ) as RouteExports;
}

/** OPTIONS: 204 with the methods the path really supports (HEAD is answered by Next from GET). */
function options(allow: string): RouteHandler {
  return async () =>
    new Response(null, {
      status: 204,
      headers: { Allow: allow, 'Cache-Control': 'no-store', 'Request-Id': newRequestId() },
    });
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
  return logged(handlers, endpoints[0]?.path ?? 'unknown');
}

function methodNotAllowed(method: RouteMethod, allow: string): RouteHandler {
  return async () =>
    errorResponse(
      new AppError('method_not_allowed', `${method} is not allowed here. Allowed: ${allow}`, {
        headers: { Allow: allow },
      }),
      newRequestId(),
    );
}

/** Any path under /v1 that names no operation. */
export function unknownRoute(): RouteExports {
  const handler: RouteHandler = async (request) =>
    errorResponse(
      new AppError('route_not_found', `No route ${new URL(request.url).pathname}. See /v1/openapi.json`),
      newRequestId(),
    );
  return logged(
    Object.fromEntries([...ROUTE_METHODS, 'OPTIONS'].map((method) => [method, handler])) as RouteExports,
    'unmatched',
  );
}

/** GET /v1/openapi.json: public (no key, not counted), built once per process. */
export function openApiRoute(): RouteExports {
  let document: string | undefined;
  const handlers = { OPTIONS: options('GET') } as RouteExports;
  for (const method of ROUTE_METHODS) {
    handlers[method] =
      method === 'GET'
        ? async (request) => {
            const requestId = newRequestId();
            // The same rule as every operation: a query parameter it does not define is a 400.
            const unknown = [...new Set(new URL(request.url).searchParams.keys())];
            if (unknown.length > 0) {
              const errors = unknown.map((name) => ({ path: name, message: `Unknown field ${name}` }));
              return errorResponse(new AppError('validation_failed', summarize(errors), { errors }), requestId);
            }
            try {
              document ??= JSON.stringify(buildOpenApiDocument());
            } catch (error) {
              return errorResponse(error, requestId); // a problem document, not Next's bare 500
            }
            return new Response(document, {
              headers: { 'Content-Type': 'application/json', 'Cache-Control': 'no-store', 'Request-Id': requestId },
            });
          }
        : methodNotAllowed(method, 'GET');
  }
  return logged(handlers, '/v1/openapi.json');
}

/** GET /docs/errors.json: the errors page as JSON (lib/api/errors-page.ts). */
export function errorsDocumentRoute(): { GET: () => Promise<Response> } {
  return {
    GET: async () =>
      Response.json(
        { errors: documentedErrors() },
        { headers: { 'Cache-Control': 'no-store', 'Request-Id': newRequestId() } },
      ),
  };
}
