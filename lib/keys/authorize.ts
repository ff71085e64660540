import { meteringSql, runStatement } from '../db';
import { allPlans, type PlanLimits, type PlanName } from '../plans';
import type { Scope } from '../scopes';
import { monthPeriod, startOfUtcDay } from '../usage/period';
import type { KeyEnvironment } from './api-key-secret';
import type { Tenant } from '../tenant';
import type { TenantRead, TenantSql } from '../tenant-read';

/**
 * Authenticates an API key, meters the request and applies the per-second limits in ONE database round trip.
 *
 * One statement looks the key up by its hash, and only when the key is active (not revoked, not expired,
 * called from an allowed address) and its plan includes the API:
 *  - counts the request towards the workspace's month (never above the allowance: the conditional upsert
 *    re-checks the limit under the row lock) and the key's day;
 *  - takes a token from the key's bucket and then, only if it got one, from the bucket of the key's workspace
 *    and environment (docs/api.md: capacity = the plan's per-second figure for the key, twice that for the
 *    workspace; both refilled continuously at their capacity per second). The buckets are rows of
 *    rate_buckets, updated under their row lock from their latest version, so they are exact across any number
 *    of instances. A request the key's bucket refuses never drains the workspace's bucket; a request the
 *    workspace's bucket refuses has spent its key token (the workspace is saturated anyway: documented);
 *  - touches last_used_at (at most once a minute, to keep the key row cool).
 * Nothing is cached, so a revocation, expiry or plan change applies to the very next request on every instance.
 */
export interface KeyIdentity extends Tenant {
  id: number;
  prefix: string;
}

export interface AuthorizedKey {
  id: number;
  label: string;
  prefix: string;
  environment: KeyEnvironment;
  scopes: Scope[];
  workspace: { id: string; name: string };
  plan: PlanLimits;
}

/** The two token buckets as this request left them (tokens may be fractional). null: no per-second limit. */
export interface RateState {
  keyCapacity: number;
  keyTokens: number;
  workspaceCapacity: number;
  workspaceTokens: number;
}

/**
 * The key's own row `k` as the tenant of an endpoint's read (lib/tenant-read.ts): a read answered by this
 * statement is bounded by the key's workspace and environment — never by anything the client sent — and is
 * evaluated only when every check has passed in the statement (active key, plan, monthly allowance, both
 * buckets, scope): a refused request never runs it (bounded work, docs/api.md).
 */
const KEY_TENANT: TenantSql = { workspace: 'k.workspace_id', environment: 'k.environment::"Environment"' };

export type Authorization =
  | { outcome: 'unknown' }
  | { outcome: 'revoked'; identity: KeyIdentity }
  | { outcome: 'expired'; identity: KeyIdentity }
  | { outcome: 'ip_not_allowed'; identity: KeyIdentity }
  | { outcome: 'no_api_access'; identity: KeyIdentity; plan: PlanName }
  | {
      outcome: 'monthly_limit_exceeded';
      identity: KeyIdentity;
      key: AuthorizedKey;
      monthlyRequests: number;
      rate: RateState | null;
    }
  | {
      outcome: 'rate_limited';
      identity: KeyIdentity;
      key: AuthorizedKey;
      monthlyRequests: number;
      rate: RateState;
      bucket: 'key' | 'workspace';
    }
  | {
      outcome: 'ok';
      identity: KeyIdentity;
      key: AuthorizedKey;
      monthlyRequests: number;
      counted: boolean;
      rate: RateState | null;
      read?: unknown;
    };

interface AuthorizeRow {
  id: number;
  label: string;
  prefix: string;
  environment: KeyEnvironment;
  scopes: Scope[];
  revoked: boolean;
  expired: boolean;
  ip_refused: boolean;
  workspace_id: string;
  workspace_name: string;
  plan: PlanName;
  eligible: boolean;
  counted_count: number | null;
  previous_count: number | null;
  key_admitted: boolean | null;
  key_tokens: number | null;
  ws_admitted: boolean | null;
  ws_tokens: number | null;
  read?: unknown;
}

export interface AuthorizeOptions {
  /** The secret's SHA-256 hash. */
  hash: string;
  /** Answer even when the monthly allowance is used up (GET /v1/me), without counting. */
  exemptFromMonthlyLimit: boolean;
  /** The client's address (lib/http/client-address.ts), for the key's IP allowlist; null when unknown. */
  clientIp: string | null;
  /** The endpoint's scope: the endpoint's read runs only when the key has it. */
  scope?: Scope | null;
  now?: Date;
  /** Read in the same statement, bounded by the key's tenant; its parsed result is `read` on an 'ok' outcome. */
  read?: TenantRead<unknown> | null;
}

/**
 * The refilled level of a bucket row `b` whose capacity (= refill per second) is `cap`, at `at`.
 * Time never runs backwards for a bucket: a statement that started before the last update refills nothing.
 */
const refilled = (cap: string, at: string) =>
  `least(${cap}, b.tokens + greatest(0, extract(epoch FROM ${at} - b.refilled_at)) * ${cap})`;

/** Upsert of one bucket: a new row starts full minus this request's token; EXCLUDED.tokens + 1 is the capacity. */
const takeToken = `ON CONFLICT (scope) DO UPDATE SET
        tokens = CASE WHEN ${refilled('(EXCLUDED.tokens + 1)', 'EXCLUDED.refilled_at')} >= 1
                      THEN ${refilled('(EXCLUDED.tokens + 1)', 'EXCLUDED.refilled_at')} - 1
                      ELSE ${refilled('(EXCLUDED.tokens + 1)', 'EXCLUDED.refilled_at')} END,
        admitted = ${refilled('(EXCLUDED.tokens + 1)', 'EXCLUDED.refilled_at')} >= 1,
        refilled_at = greatest(b.refilled_at, EXCLUDED.refilled_at)
      RETURNING b.tokens, b.admitted`;

/** A bucket's level now, read without taking a token (headers of a request refused for the month). */
const peek = (scope: string, cap: string) =>
  `(SELECT ${refilled(cap, 'now()')} FROM rate_buckets b WHERE b.scope = ${scope})`;

const AUTHORIZE_SQL = `
    WITH k AS (
      SELECT k.id, k.label, k.prefix, k.environment::text AS environment, k.scopes, k.revoked_at, k.last_used_at,
             k.workspace_id, w.name AS workspace_name, w.plan::text AS plan,
             (k.expires_at IS NOT NULL AND k.expires_at <= now()) AS expired,
             (COALESCE(cardinality(k.allowed_ips), 0) > 0
               AND ($6::inet IS NULL OR NOT ($6::inet <<= ANY (k.allowed_ips::inet[])))) AS ip_refused
      FROM api_keys k JOIN workspaces w ON w.id = k.workspace_id
      WHERE k.secret_hash = $1
    ),
    eligible AS (
      SELECT k.id, k.workspace_id, k.environment, k.last_used_at,
             (($2::jsonb -> k.plan ->> 'monthly'))::int AS monthly_limit,
             (($2::jsonb -> k.plan ->> 'rate'))::float8 AS rate
      FROM k
      WHERE k.revoked_at IS NULL AND NOT k.expired AND NOT k.ip_refused AND ($2::jsonb -> k.plan) IS NOT NULL
    ),
    counted AS (
      INSERT INTO usage_monthly AS u (workspace_id, period, count)
      SELECT e.workspace_id, $3, 1 FROM eligible e WHERE e.monthly_limit > 0
      ON CONFLICT (workspace_id, period) DO UPDATE SET count = u.count + 1
        WHERE u.count < (SELECT monthly_limit FROM eligible)
      RETURNING u.count
    ),
    daily AS (
      INSERT INTO usage_daily AS d (key_id, day, workspace_id, count)
      SELECT e.id, $4::date, e.workspace_id, 1 FROM eligible e WHERE EXISTS (SELECT 1 FROM counted)
      ON CONFLICT (key_id, day) DO UPDATE SET count = d.count + 1
    ),
    key_bucket AS (
      -- Every request that reaches the rate limit (step 5): counted ones, and /v1/me's uncounted answers.
      INSERT INTO rate_buckets AS b (scope, tokens, refilled_at, admitted)
      SELECT 'key:' || e.id, e.rate - 1, now(), true FROM eligible e
      WHERE e.rate > 0 AND (EXISTS (SELECT 1 FROM counted) OR $5)
      ${takeToken}
    ),
    ws_bucket AS (
      INSERT INTO rate_buckets AS b (scope, tokens, refilled_at, admitted)
      SELECT 'ws:' || e.workspace_id || ':' || e.environment, 2 * e.rate - 1, now(), true FROM eligible e
      WHERE EXISTS (SELECT 1 FROM key_bucket WHERE admitted)
      ${takeToken}
    ),
    admitted AS (
      -- Every check passed (month, both buckets, the endpoint's scope $7): only then does the endpoint read run.
      SELECT 1 FROM eligible e JOIN k ON k.id = e.id
      WHERE (EXISTS (SELECT 1 FROM counted) OR $5)
        AND (e.rate <= 0 OR EXISTS (SELECT 1 FROM ws_bucket WHERE admitted))
        AND ($7::text IS NULL OR $7::text = ANY (k.scopes))
    ),
    touched AS (
      UPDATE api_keys SET last_used_at = now()
      WHERE id = (SELECT id FROM eligible)
        AND EXISTS (SELECT 1 FROM counted)
        AND (last_used_at IS NULL OR last_used_at < now() - interval '1 minute')
    )
    SELECT k.id, k.label, k.prefix, k.environment, k.scopes, (k.revoked_at IS NOT NULL) AS revoked, k.expired, k.ip_refused,
           k.workspace_id, k.workspace_name, k.plan,
           EXISTS (SELECT 1 FROM eligible) AS eligible,
           (SELECT count FROM counted) AS counted_count,
           -- Only for an uncounted request (refused, or /v1/me at the limit): a counted one knows its count.
           CASE WHEN NOT EXISTS (SELECT 1 FROM counted)
                THEN (SELECT u.count FROM usage_monthly u WHERE u.workspace_id = k.workspace_id AND u.period = $3)
           END AS previous_count,
           (SELECT admitted FROM key_bucket) AS key_admitted,
           (SELECT admitted FROM ws_bucket) AS ws_admitted,
           CASE WHEN EXISTS (SELECT 1 FROM key_bucket) THEN (SELECT tokens FROM key_bucket)
                WHEN EXISTS (SELECT 1 FROM eligible) AND NOT $5
                THEN ${peek(`'key:' || k.id`, `(SELECT rate FROM eligible)`)}
           END AS key_tokens,
           CASE WHEN EXISTS (SELECT 1 FROM ws_bucket) THEN (SELECT tokens FROM ws_bucket)
                WHEN EXISTS (SELECT 1 FROM eligible)
                THEN ${peek(`'ws:' || k.workspace_id || ':' || k.environment`, `(2 * (SELECT rate FROM eligible))`)}
           END AS ws_tokens`;

/** The statement's text and parameters: $1–$7 of the authorization, then the read's own. */
function authorizeStatement(values: unknown[], read: TenantRead<unknown> | null | undefined): string {
  if (!read) return `${AUTHORIZE_SQL} FROM k`;
  const expression = read.sql(KEY_TENANT, (value) => `$${values.push(value)}`);
  return `${AUTHORIZE_SQL},
           CASE WHEN EXISTS (SELECT 1 FROM admitted) THEN ${expression} END AS read
    FROM k`;
}

/** The statement and its parameters, exactly as authorizeApiKey sends them (tests EXPLAIN it). */
export function authorizeQuery({
  hash,
  exemptFromMonthlyLimit,
  clientIp,
  scope = null,
  now = new Date(),
  read,
}: AuthorizeOptions): { text: string; values: unknown[] } {
  const apiPlans = Object.fromEntries(
    allPlans()
      .filter((plan) => plan.apiAccess)
      .map((plan) => [plan.name, { monthly: plan.monthlyLimit, rate: plan.rateLimitPerSecond }]),
  );
  const period = monthPeriod(now);
  const day = startOfUtcDay(now).toISOString().slice(0, 10);
  const values: unknown[] = [hash, apiPlans, period, day, exemptFromMonthlyLimit, clientIp, scope];
  return { text: authorizeStatement(values, read), values };
}

export async function authorizeApiKey(options: AuthorizeOptions): Promise<Authorization> {
  const { exemptFromMonthlyLimit, read } = options;
  const { text, values } = authorizeQuery(options);
  const rows = await runStatement<AuthorizeRow>(meteringSql(), text, values);

  const row = rows[0];
  if (!row) return { outcome: 'unknown' };
  const identity: KeyIdentity = {
    id: row.id,
    prefix: row.prefix,
    environment: row.environment,
    workspaceId: row.workspace_id,
  };
  if (row.revoked) return { outcome: 'revoked', identity };
  if (row.expired) return { outcome: 'expired', identity };
  if (row.ip_refused) return { outcome: 'ip_not_allowed', identity };
  if (!row.eligible) return { outcome: 'no_api_access', identity, plan: row.plan };

  const plan = allPlans().find((candidate) => candidate.name === row.plan);
  if (!plan) return { outcome: 'no_api_access', identity, plan: row.plan };
  const key: AuthorizedKey = {
    id: row.id,
    label: row.label,
    prefix: row.prefix,
    environment: row.environment,
    scopes: row.scopes,
    workspace: { id: row.workspace_id, name: row.workspace_name },
    plan,
  };

  const capacity = plan.rateLimitPerSecond;
  const rate: RateState | null =
    capacity > 0
      ? {
          keyCapacity: capacity,
          keyTokens: row.key_tokens ?? capacity,
          workspaceCapacity: 2 * capacity,
          workspaceTokens: row.ws_tokens ?? 2 * capacity,
        }
      : null;
  const counted = row.counted_count !== null;
  const monthlyRequests = row.counted_count ?? row.previous_count ?? 0;
  if (!counted && !exemptFromMonthlyLimit)
    return { outcome: 'monthly_limit_exceeded', identity, key, monthlyRequests, rate };
  if (rate && row.key_admitted === false)
    return { outcome: 'rate_limited', identity, key, monthlyRequests, rate, bucket: 'key' };
  if (rate && row.ws_admitted === false)
    return { outcome: 'rate_limited', identity, key, monthlyRequests, rate, bucket: 'workspace' };
  // Without the endpoint's scope the read did not run (the caller answers 403 missing_scope): nothing to parse.
  const readRan = read && (!options.scope || row.scopes.includes(options.scope));
  return {
    outcome: 'ok',
    identity,
    key,
    monthlyRequests,
    counted,
    rate,
    ...(readRan ? { read: read.parse(row.read ?? null) } : {}),
  };
}
