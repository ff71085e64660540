/**
 * The one answer to "is this error the database being unavailable?" — for every client the app uses: Prisma
 * (its own codes, a driver-adapter error, or a raw-query error wrapping the server's code), `pg` and
 * postgres.js. Unavailable means: try again shortly (a restart, failover, lost connection, no free connection);
 * the API answers 503 with Retry-After, never 500 (docs/operations.md).
 */

/** SQLSTATEs: operator intervention (admin/crash shutdown, cannot connect now) and too many connections. */
const SERVER_CODES = new Set(['57P01', '57P02', '57P03', '53300']);
/** SQLSTATE class 08: connection exceptions. */
const CONNECTION_EXCEPTION_CLASS = '08';
/** Node sockets; postgres.js's own connection errors; Prisma's "can't reach", timeouts, "server closed", pool timeout. */
const CLIENT_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
  'CONNECTION_CLOSED',
  'CONNECTION_ENDED',
  'CONNECTION_DESTROYED',
  'CONNECT_TIMEOUT',
  'P1001',
  'P1002',
  'P1008',
  'P1017',
  'P2024',
]);
/** @prisma/driver-adapter-utils error kinds for a lost or unreachable server. */
const ADAPTER_KINDS = new Set(['ConnectionClosed', 'DatabaseNotReachable', 'SocketTimeout', 'TooManyConnections']);
/** Messages of errors that carry no code (pg's "Connection terminated", Prisma's wrapped raw-query errors). */
const MESSAGES =
  /Connection terminated|connect ECONNREFUSED|Can't reach database|Server has closed the connection|terminating connection due to administrator command|the database system is (shutting down|starting up|in recovery|not yet accepting connections)|Client has encountered a connection error|Code: `(57P0[123]|08\w{3}|53300)`/i;

function codeMeansUnavailable(code: unknown): boolean {
  return (
    typeof code === 'string' &&
    (SERVER_CODES.has(code) ||
      CLIENT_CODES.has(code) ||
      (code.length === 5 && code.startsWith(CONNECTION_EXCEPTION_CLASS)))
  );
}

/** Walks the error, its causes, AggregateError members and Prisma's meta (driverAdapterError, code) — breadth first, bounded. */
export function isDatabaseUnavailable(error: unknown): boolean {
  const queue: unknown[] = [error];
  const seen = new Set<unknown>();
  for (let visited = 0; queue.length > 0 && visited < 32; visited++) {
    const current = queue.shift();
    if (typeof current !== 'object' || current === null || seen.has(current)) continue;
    seen.add(current);
    const fields = current as {
      code?: unknown;
      kind?: unknown;
      originalCode?: unknown;
      message?: unknown;
      cause?: unknown;
      meta?: unknown;
      errors?: unknown;
    };
    if (codeMeansUnavailable(fields.code) || codeMeansUnavailable(fields.originalCode)) return true;
    if (typeof fields.kind === 'string' && ADAPTER_KINDS.has(fields.kind)) return true;
    if (typeof fields.message === 'string' && MESSAGES.test(fields.message)) return true;
    queue.push(fields.cause, fields.meta);
    if (Array.isArray(fields.errors)) queue.push(...fields.errors);
    const meta = fields.meta as { driverAdapterError?: unknown; code?: unknown } | undefined;
    if (meta && typeof meta === 'object') {
      if (codeMeansUnavailable(meta.code)) return true;
      queue.push(meta.driverAdapterError);
    }
  }
  return false;
}
