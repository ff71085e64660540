import { AppError } from '../errors';
import { clientAddress } from '../http/client-address';
import { authorizeApiKey, type Authorization, type KeyIdentity } from '../keys/authorize';
import type { TenantRead } from '../tenant-read';
import { parseSecret } from '../keys/api-key-secret';
import { planWithoutApiAccessMessage } from '../plans';
import { missingScopeMessage, type Scope } from '../scopes';
import { rateLimitHeaders, retryAfterSeconds, secondsUntilNextMonth } from './rate-limit-headers';

const CHALLENGE = 'Bearer realm="api"';
const CHALLENGE_INVALID = 'Bearer realm="api", error="invalid_token"';

/** The key from `X-API-Key` (wins when non-empty) or `Authorization: Bearer` (scheme case-insensitive). */
export function extractApiKey(headers: Headers): string | null {
  const direct = headers.get('x-api-key')?.trim();
  if (direct) return direct;
  const authorization = headers.get('authorization')?.trim();
  if (!authorization) return null;
  const match = /^bearer\s+(.+)$/i.exec(authorization);
  return match?.[1]?.trim() || null;
}

export interface AuthenticatedRequest {
  authorization: Extract<Authorization, { outcome: 'ok' }>;
  headers: Record<string, string>;
}

/**
 * Steps 1–6 of the contract, in order: find the key, check its form (no database read for a malformed
 * key), look it up and meter the request (one round trip), then plan, monthly allowance, rate limit, scope.
 */
export async function authenticateRequest(
  request: Request,
  options: {
    scope: Scope | null;
    exemptFromMonthlyLimit: boolean;
    now: Date;
    read?: TenantRead<unknown> | null;
    /** Set as soon as the key is known (even when the request is then refused): the request log's key. */
    seen?: { identity: KeyIdentity | null };
  },
): Promise<AuthenticatedRequest> {
  const url = new URL(request.url);
  const candidate = extractApiKey(request.headers);
  if (!candidate) {
    const inQuery = ['api_key', 'apikey', 'key', 'access_token'].some((name) => url.searchParams.has(name));
    throw new AppError(
      'missing_api_key',
      inQuery
        ? 'API keys are not accepted in the query string. Send the key in the X-API-Key header (or Authorization: Bearer)'
        : 'No API key was sent. Send it in the X-API-Key header (or Authorization: Bearer)',
      { headers: { 'WWW-Authenticate': CHALLENGE } },
    );
  }
  const invalid = () =>
    new AppError('invalid_api_key', 'The API key is not valid', { headers: { 'WWW-Authenticate': CHALLENGE_INVALID } });
  const parsed = parseSecret(candidate);
  if (!parsed) throw invalid();

  const result = await authorizeApiKey({
    hash: parsed.hash,
    exemptFromMonthlyLimit: options.exemptFromMonthlyLimit,
    clientIp: clientAddress(request.headers.get('x-forwarded-for')),
    scope: options.scope,
    now: options.now,
    read: options.read,
  });
  if (options.seen && result.outcome !== 'unknown') options.seen.identity = result.identity;
  switch (result.outcome) {
    case 'unknown':
      throw invalid();
    case 'revoked':
      throw new AppError('revoked_api_key', 'The API key has been revoked', {
        headers: { 'WWW-Authenticate': CHALLENGE_INVALID },
      });
    case 'expired':
      throw new AppError(
        'expired_api_key',
        'The API key has expired. Use the key that replaced it, or create a new one in the portal',
        {
          headers: { 'WWW-Authenticate': CHALLENGE_INVALID },
        },
      );
    case 'ip_not_allowed':
      throw new AppError(
        'ip_not_allowed',
        "This API key only accepts requests from the addresses on its allowlist, and this request's address is not on it",
      );
    case 'no_api_access':
      throw new AppError('plan_without_api_access', planWithoutApiAccessMessage(result.plan));
    case 'monthly_limit_exceeded':
      throw new AppError(
        'monthly_limit_exceeded',
        `This workspace has used its ${result.key.plan.monthlyLimit} requests for this month. The allowance resets at the start of the next UTC month`,
        { headers: { ...headersFor(result, options.now), 'Retry-After': String(secondsUntilNextMonth(options.now)) } },
      );
    case 'rate_limited':
      throw new AppError(
        'rate_limited',
        result.bucket === 'key'
          ? `This key allows ${result.rate.keyCapacity} requests per second. Retry after the Retry-After delay`
          : `This workspace's ${result.key.environment} keys together allow ${result.rate.workspaceCapacity} requests per second. Retry after the Retry-After delay`,
        {
          headers: {
            ...headersFor(result, options.now),
            'Retry-After': String(retryAfterSeconds(result.rate, result.bucket)),
          },
        },
      );
    case 'ok':
      break;
  }
  const headers = headersFor(result, options.now);
  if (options.scope && !result.key.scopes.includes(options.scope)) {
    // RFC 6750 §3: the challenge names the scope the operation needs.
    const challenge = `${CHALLENGE}, error="insufficient_scope", scope="${options.scope}"`;
    throw new AppError('missing_scope', missingScopeMessage(options.scope), {
      headers: { ...headers, 'WWW-Authenticate': challenge },
    });
  }
  return { authorization: result, headers };
}

/** RateLimit headers for a request that got past the plan check. */
function headersFor(result: Extract<Authorization, { key: unknown }>, now: Date): Record<string, string> {
  return rateLimitHeaders({ plan: result.key.plan, monthlyRequests: result.monthlyRequests, rate: result.rate, now });
}
