import pino from 'pino';
import { env } from '../env';

/**
 * The access log: one JSON line on stdout per /v1 request, for operators (ship it with any log collector).
 * Fields: time, request_id, method, path (no query string), status, duration_ms, key_id (null when the request
 * was not authenticated). Never the key, the headers or the body: the line is built from these fields alone.
 * ACCESS_LOG=false turns it off (lib/env.ts).
 */
type Handler = (request: Request, context: never) => Promise<Response>;

let logger: pino.Logger | undefined;
function accessLogger(): pino.Logger {
  // Asynchronous writes (sonic-boom), flushed on exit by pino: the request never waits for stdout.
  logger ??= pino(
    { base: null, timestamp: pino.stdTimeFunctions.isoTime, messageKey: 'msg' },
    pino.destination({ dest: 1, sync: false }),
  );
  return logger;
}

// The authenticated key of a request, noted by the API handler (a WeakMap: nothing outlives the request).
const keyIds = new WeakMap<Request, number>();

export function noteApiKey(request: Request, keyId: number) {
  keyIds.set(request, keyId);
}

/** Wraps a /v1 route handler so that each request it answers writes one access-log line. */
export function withAccessLog<H extends Handler>(handler: H): H {
  if (!env().ACCESS_LOG) return handler;
  const logged = async (request: Request, context: never) => {
    const started = performance.now();
    const response = await handler(request, context);
    accessLogger().info(
      {
        request_id: response.headers.get('Request-Id'),
        method: request.method,
        path: new URL(request.url).pathname,
        status: response.status,
        duration_ms: Math.round((performance.now() - started) * 10) / 10,
        key_id: keyIds.get(request) ?? null,
      },
      'request',
    );
    return response;
  };
  return logged as H;
}
