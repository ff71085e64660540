import { rpcCallCounter } from '../evm/client';

/**
 * A Bitcoin Core JSON-RPC client (docs/settlement.md): the standard every node and provider speaks. Credentials
 * come from the URL (http://user:pass@host:port/, sent as HTTP Basic) or from extra headers (RPC_HEADERS_BITCOIN,
 * for providers that want an API key); several URLs are fallbacks, tried in order. Amounts stay exact: Core
 * writes them as JSON numbers with 8 decimals, which the parser below keeps as strings (a float never holds money).
 */
export class BitcoinRpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
    this.name = 'BitcoinRpcError';
  }
}

interface Endpoint {
  url: string;
  headers: Record<string, string>;
}

/** `Name: value` pairs separated by newlines or `;` (RPC_HEADERS_BITCOIN). */
export function parseHeaders(text: string | undefined): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const line of (text ?? '').split(/[\n;]/)) {
    const at = line.indexOf(':');
    if (at > 0) headers[line.slice(0, at).trim()] = line.slice(at + 1).trim();
  }
  return headers;
}

function endpoint(raw: string, extra: Record<string, string>): Endpoint {
  const url = new URL(raw);
  const headers: Record<string, string> = { 'content-type': 'application/json', ...extra };
  if (url.username || url.password) {
    headers.authorization = `Basic ${Buffer.from(`${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`).toString('base64')}`;
    url.username = '';
    url.password = '';
  }
  return { url: url.toString(), headers };
}

/** Amount fields Core writes as numbers; quoted before JSON.parse so they arrive as exact decimal strings. */
const AMOUNT_FIELD = /"(value|amount|fee)":\s*(-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?)/g;

/** A JSON number's text as a plain decimal string, exactly ("1e-8" → "0.00000001"; some nodes write exponents). */
export function plainDecimal(number: string): string {
  const match = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([-+]?\d+))?$/.exec(number);
  if (!match) throw new Error(`not a JSON number: ${number}`);
  const [, sign, whole, fraction = '', exponent = '0'] = match;
  const digits = whole! + fraction;
  const point = whole!.length + Number(exponent);
  const padded =
    point <= 0
      ? '0'.repeat(1 - point) + digits
      : point > digits.length
        ? digits + '0'.repeat(point - digits.length)
        : digits;
  const at = point <= 0 ? 1 : point;
  const intPart = padded.slice(0, at).replace(/^0+(?=\d)/, '');
  const fracPart = padded.slice(at).replace(/0+$/, '');
  return `${sign}${intPart}${fracPart ? `.${fracPart}` : ''}`;
}

export function parseExactJson(text: string): unknown {
  return JSON.parse(
    text.replace(AMOUNT_FIELD, (_, key: string, number: string) => `"${key}":"${plainDecimal(number)}"`),
  );
}

export class BitcoinRpc {
  private readonly endpoints: Endpoint[];
  private preferred = 0;

  constructor(
    urls: string[],
    headers: Record<string, string> = {},
    private readonly counter = 'bitcoin',
  ) {
    if (urls.length === 0) throw new Error('no Bitcoin RPC URL');
    this.endpoints = urls.map((url) => endpoint(url, headers));
  }

  /** One call; an RPC error (the node answered) is thrown as BitcoinRpcError and never retried elsewhere. */
  async call(method: string, params: unknown[] = []): Promise<unknown> {
    const [answer] = await this.post([{ method, params }]);
    if (answer!.error) throw new BitcoinRpcError(answer!.error.code, answer!.error.message);
    return answer!.result;
  }

  /** Several calls in one HTTP request (a JSON-RPC batch); each answer is its result or its error. */
  async batch(
    calls: Array<{ method: string; params: unknown[] }>,
  ): Promise<Array<{ result: unknown; error: { code: number; message: string } | null }>> {
    if (calls.length === 0) return [];
    return this.post(calls);
  }

  private async post(calls: Array<{ method: string; params: unknown[] }>) {
    const body = JSON.stringify(
      calls.length === 1
        ? { jsonrpc: '1.0', id: 0, ...calls[0] }
        : calls.map((c, id) => ({ jsonrpc: '1.0', id, ...c })),
    );
    let lastError: unknown;
    for (let attempt = 0; attempt < this.endpoints.length; attempt++) {
      const index = (this.preferred + attempt) % this.endpoints.length;
      const target = this.endpoints[index]!;
      try {
        rpcCallCounter.set(this.counter, (rpcCallCounter.get(this.counter) ?? 0) + calls.length);
        const response = await fetch(target.url, {
          method: 'POST',
          headers: target.headers,
          body,
          signal: AbortSignal.timeout(30_000),
        });
        // Core answers RPC errors with HTTP 500/404 and a JSON body; other statuses (401, 502…) are transport failures.
        const text = await response.text();
        if (!response.ok && response.status !== 500 && response.status !== 404)
          throw new Error(`HTTP ${response.status} from the Bitcoin RPC`);
        const parsed = parseExactJson(text) as
          | { result: unknown; error: { code: number; message: string } | null; id: number }
          | Array<{ result: unknown; error: { code: number; message: string } | null; id: number }>;
        this.preferred = index;
        const answers = Array.isArray(parsed) ? [...parsed].sort((a, b) => a.id - b.id) : [parsed];
        return answers.map((a) => ({ result: a.result, error: a.error ?? null }));
      } catch (error) {
        lastError = error;
      }
    }
    throw lastError instanceof Error ? lastError : new Error(String(lastError));
  }
}
