import { AppError } from '../errors';

export const MAX_BODY_BYTES = 64 * 1024;

/**
 * Reads a JSON body of at most 64 KiB. An empty body reads as `undefined`; a non-empty one must be declared
 * application/json (else 415). Oversized bodies are refused
 * from Content-Length when it is sent, else while streaming, so a huge body is never buffered whole.
 */
export async function readJsonBody(request: Request): Promise<unknown> {
  const declared = request.headers.get('content-length');
  if (declared !== null && Number(declared) > MAX_BODY_BYTES) throw tooLarge();
  if (!request.body) return undefined;

  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_BODY_BYTES) {
      await reader.cancel();
      throw tooLarge();
    }
    chunks.push(value);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (text.trim() === '') return undefined;
  if (!isJsonMediaType(request.headers.get('content-type'))) {
    throw new AppError(
      'unsupported_media_type',
      'The request body must be JSON sent with Content-Type: application/json (or send no body)',
      { headers: { 'Accept-Post': 'application/json' } },
    );
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new AppError('malformed_json', 'The request body is not valid JSON. Send a JSON object with Content-Type: application/json');
  }
}

/**
 * Only `application/json` (parameters such as charset allowed, case-insensitive) declares a JSON body: a body sent
 * as text/plain or a form is refused with 415 rather than guessed at. An empty body needs no Content-Type.
 */
export function isJsonMediaType(contentType: string | null): boolean {
  return (contentType ?? '').split(';')[0]!.trim().toLowerCase() === 'application/json';
}

function tooLarge(): AppError {
  return new AppError('payload_too_large', `The request body is larger than ${MAX_BODY_BYTES / 1024} KiB`);
}
