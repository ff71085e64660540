import { AppError } from '../errors';

export const MAX_BODY_BYTES = 64 * 1024;

/**
 * Reads a JSON body of at most 64 KiB. An empty body reads as `undefined`. Oversized bodies are refused
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
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new AppError('malformed_json', 'The request body is not valid JSON. Send a JSON object with Content-Type: application/json');
  }
}

function tooLarge(): AppError {
  return new AppError('payload_too_large', `The request body is larger than ${MAX_BODY_BYTES / 1024} KiB`);
}
