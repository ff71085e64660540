import { AppError } from '../errors';
import { env } from '../env';

export const MAX_BODY_BYTES = 64 * 1024;

/**
 * Reads a request body of at most 64 KiB as text, within REQUEST_BODY_TIMEOUT_MS. Oversized bodies are refused
 * from Content-Length when it is sent, else while streaming, so a huge body is never buffered whole; a body
 * still arriving after the time limit is abandoned with 408 request_timeout (the caller reads the body before
 * authenticating, so such a request is never counted and holds no database work).
 */
export async function readBodyText(
  request: Request,
  timeoutMs: number = env().REQUEST_BODY_TIMEOUT_MS,
): Promise<string> {
  const declared = request.headers.get('content-length');
  if (declared !== null && Number(declared) > MAX_BODY_BYTES) throw tooLarge();
  if (!request.body) return '';

  const reader = request.body.getReader();
  const read: BodyRead = {
    deadline: performance.now() + timeoutMs,
    cancel: () => void reader.cancel().catch(() => undefined),
    timedOut: false,
  };
  watch(read);
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      // A timed-out read is cancelled by the sweeper, which ends this loop with done.
      const next = await reader.read();
      if (read.timedOut) {
        throw new AppError(
          'request_timeout',
          `The request body did not arrive within ${Math.round(timeoutMs / 1000)} s. Send the whole body at once`,
          {
            headers: { Connection: 'close' },
          },
        );
      }
      if (next.done) break;
      size += next.value.byteLength;
      if (size > MAX_BODY_BYTES) {
        await reader.cancel();
        throw tooLarge();
      }
      chunks.push(next.value);
    }
  } finally {
    reading.delete(read);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * The body deadline. One sweeper for all reads in progress instead of a timer and a Promise.race per request:
 * the per-request timer cost ≈ 0.02 ms of server CPU per POST (docs/benchmarks.md). The sweeper runs
 * every SWEEP_MS while reads are in progress, so a deadline is kept to within that.
 */
interface BodyRead {
  deadline: number;
  cancel: () => void;
  timedOut: boolean;
}
const SWEEP_MS = 250;
const reading = new Set<BodyRead>();
let sweeper: NodeJS.Timeout | undefined;

function watch(read: BodyRead): void {
  reading.add(read);
  sweeper ??= setInterval(sweep, SWEEP_MS).unref();
}

function sweep(): void {
  const now = performance.now();
  for (const read of reading) {
    if (read.deadline > now) continue;
    read.timedOut = true;
    reading.delete(read);
    read.cancel();
  }
  if (reading.size === 0) {
    clearInterval(sweeper);
    sweeper = undefined;
  }
}

/**
 * Parses a body read by readBodyText: an empty body reads as `undefined`; a non-empty one must be declared
 * application/json (else 415).
 */
export function parseJsonText(text: string, contentType: string | null): unknown {
  if (text.trim() === '') return undefined;
  if (!isJsonMediaType(contentType)) {
    throw new AppError(
      'unsupported_media_type',
      'The request body must be JSON sent with Content-Type: application/json (or send no body)',
      { headers: { 'Accept-Post': 'application/json' } },
    );
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new AppError(
      'malformed_json',
      'The request body is not valid JSON. Send a JSON object with Content-Type: application/json',
    );
  }
}

/**
 * Only `application/json` (parameters such as charset allowed, case-insensitive) declares a JSON body: a body sent
 * as text/plain or a form is refused with 415 rather than guessed at. An empty body needs no Content-Type.
 */
export function isJsonMediaType(contentType: string | null): boolean {
  return (contentType ?? '').split(';')[0]!.trim().toLowerCase() === 'application/json';
}

export async function readJsonBody(request: Request): Promise<unknown> {
  return parseJsonText(await readBodyText(request), request.headers.get('content-type'));
}

function tooLarge(): AppError {
  return new AppError('payload_too_large', `The request body is larger than ${MAX_BODY_BYTES / 1024} KiB`);
}
