/**
 * Which response headers a request gets is decided on the path the application will route, not on the raw
 * request line: `GET /v1/../pay/<token>` through a proxy that forwards raw paths would otherwise be treated as
 * an API call (no CSP, no X-Frame-Options) while the router serves the payer page. Paths with dot segments
 * (`.`/`..`, also percent-encoded) or backslashes name no resource of this app and are refused with 400; every
 * other path is classified after WHATWG normalisation.
 */
export type PathKind = 'api' | 'pay' | 'page';

export type PathDecision =
  { kind: PathKind; pathname: string } | { refused: 'dot_segment' | 'backslash' | 'not_a_path' };

const DOT_SEGMENT = /^(?:\.|%2e){1,2}$/i;

export function classifyRequestPath(rawUrl: string): PathDecision {
  const rawPath = rawUrl.split(/[?#]/, 1)[0] ?? '';
  if (!rawPath.startsWith('/')) return { refused: 'not_a_path' };
  if (rawPath.includes('\\') || /%5c/i.test(rawPath)) return { refused: 'backslash' };
  if (rawPath.split('/').some((segment) => DOT_SEGMENT.test(segment))) return { refused: 'dot_segment' };
  let pathname: string;
  try {
    pathname = new URL(rawPath, 'http://localhost').pathname;
  } catch {
    return { refused: 'not_a_path' };
  }
  if (pathname === '/v1' || pathname.startsWith('/v1/')) return { kind: 'api', pathname };
  if (pathname.startsWith('/pay/')) return { kind: 'pay', pathname };
  return { kind: 'page', pathname };
}
