import { meteringSql, runStatement } from '../db';
import { allPlans, type PlanLimits, type PlanName } from '../plans';
import type { Scope } from '../scopes';
import { monthPeriod, startOfUtcDay } from '../usage/period';
import type { KeyEnvironment } from './secret';

/**
 * Authenticates an API key and meters the request in ONE database round trip.
 *
 * One statement looks the key up by its hash, and only when the key is active and its plan includes
 * the API: counts the request towards the workspace's month (never above the allowance: the
 * conditional upsert re-checks the limit under the row lock), counts the key's day and its current
 * one-second rate window (one row, one upsert), and touches last_used_at (at most once a minute, to keep the
 * key row cool). Nothing is cached, so a revocation or plan change applies to the very next request on every
 * instance.
 */
export interface AuthorizedKey {
  id: number;
  label: string;
  prefix: string;
  environment: KeyEnvironment;
  scopes: Scope[];
  workspace: { id: string; name: string };
  plan: PlanLimits;
}

export interface RateWindow {
  limit: number;
  used: number;
  windowStart: Date;
}

/**
 * A read answered by the authorization statement itself, so that an endpoint whose work is one read
 * (GET /v1/invoices/{id}) costs one database round trip in all. The read is a scalar SQL expression
 * (JSON or null) scoped by the key's own row `k` (k.workspace_id, k.environment) — never by anything the
 * client sent — and evaluated only for an active key whose plan has API access. Its result is handed to the
 * endpoint only when every check (monthly allowance, rate limit, scope) has passed; otherwise it is dropped.
 */
export interface FusedRead<T = unknown> {
  /** The expression; `param` binds a value and returns its placeholder. */
  sql: (param: (value: unknown) => string) => string;
  parse: (json: unknown) => T;
}

export type Authorization =
  | { outcome: 'unknown' }
  | { outcome: 'revoked' }
  | { outcome: 'no_api_access'; plan: PlanName }
  | { outcome: 'monthly_limit_exceeded'; key: AuthorizedKey; monthlyRequests: number; rate: RateWindow | null }
  | { outcome: 'rate_limited'; key: AuthorizedKey; monthlyRequests: number; rate: RateWindow }
  | { outcome: 'ok'; key: AuthorizedKey; monthlyRequests: number; counted: boolean; rate: RateWindow; read?: unknown };

interface AuthorizeRow {
  id: number;
  label: string;
  prefix: string;
  environment: KeyEnvironment;
  scopes: Scope[];
  revoked: boolean;
  workspace_id: string;
  workspace_name: string;
  plan: PlanName;
  eligible: boolean;
  counted_count: number | null;
  previous_count: number | null;
  rate_count: number | null;
  rate_window: Date | null;
  read?: unknown;
}

export interface AuthorizeOptions {
  /** The secret's SHA-256 hash. */
  hash: string;
  /** Answer even when the monthly allowance is used up (GET /v1/me), without counting. */
  exemptFromMonthlyLimit: boolean;
  now?: Date;
  /** Read in the same statement; its parsed result is `read` on an 'ok' outcome. */
  read?: FusedRead | null;
}

const AUTHORIZE_SQL = `
    WITH k AS (
      SELECT k.id, k.label, k.prefix, k.environment::text AS environment, k.scopes, k.revoked_at, k.last_used_at,
             k.workspace_id, w.name AS workspace_name, w.plan::text AS plan
      FROM api_keys k JOIN workspaces w ON w.id = k.workspace_id
      WHERE k.secret_hash = $1
    ),
    eligible AS (
      SELECT k.id, k.workspace_id, k.last_used_at,
             (($2::jsonb -> k.plan ->> 'monthly'))::int AS monthly_limit
      FROM k
      WHERE k.revoked_at IS NULL AND ($2::jsonb -> k.plan) IS NOT NULL
    ),
    counted AS (
      INSERT INTO usage_monthly AS u (workspace_id, period, count)
      SELECT e.workspace_id, $3, 1 FROM eligible e WHERE e.monthly_limit > 0
      ON CONFLICT (workspace_id, period) DO UPDATE SET count = u.count + 1
        WHERE u.count < (SELECT monthly_limit FROM eligible)
      RETURNING u.count
    ),
    daily AS (
      -- The key's day (counted requests) and its current one-second window (every request that reaches the
      -- rate limit: counted ones, and /v1/me's uncounted answers at the monthly limit) in one row, one upsert.
      INSERT INTO usage_daily AS d (key_id, day, workspace_id, count, window_start, window_count)
      SELECT e.id, $4::date, e.workspace_id, CASE WHEN EXISTS (SELECT 1 FROM counted) THEN 1 ELSE 0 END,
             date_trunc('second', now()), 1
      FROM eligible e
      WHERE EXISTS (SELECT 1 FROM counted) OR $5
      ON CONFLICT (key_id, day) DO UPDATE SET
        count = d.count + EXCLUDED.count,
        window_count = CASE WHEN d.window_start >= EXCLUDED.window_start THEN d.window_count + 1 ELSE 1 END,
        window_start = GREATEST(d.window_start, EXCLUDED.window_start)
      RETURNING d.window_count, d.window_start
    ),
    touched AS (
      UPDATE api_keys SET last_used_at = now()
      WHERE id = (SELECT id FROM eligible)
        AND EXISTS (SELECT 1 FROM counted)
        AND (last_used_at IS NULL OR last_used_at < now() - interval '1 minute')
    )
    SELECT k.id, k.label, k.prefix, k.environment, k.scopes, (k.revoked_at IS NOT NULL) AS revoked,
           k.workspace_id, k.workspace_name, k.plan,
           EXISTS (SELECT 1 FROM eligible) AS eligible,
           (SELECT count FROM counted) AS counted_count,
           -- Only for an uncounted request (refused, or /v1/me at the limit): a counted one knows its count.
           CASE WHEN NOT EXISTS (SELECT 1 FROM counted)
                THEN (SELECT u.count FROM usage_monthly u WHERE u.workspace_id = k.workspace_id AND u.period = $3)
           END AS previous_count,
           (SELECT window_count FROM daily) AS rate_count,
           (SELECT window_start FROM daily) AS rate_window`;

/** The statement's text and parameters: $1–$5 of the authorization, then the fused read's own. */
function authorizeStatement(values: unknown[], read: FusedRead | null | undefined): string {
  if (!read) return `${AUTHORIZE_SQL} FROM k`;
  const expression = read.sql((value) => `$${values.push(value)}`);
  return `${AUTHORIZE_SQL}, CASE WHEN EXISTS (SELECT 1 FROM eligible) THEN ${expression} END AS read FROM k`;
}

export async function authorizeApiKey({ hash, exemptFromMonthlyLimit, now = new Date(), read }: AuthorizeOptions): Promise<Authorization> {
  const apiPlans = Object.fromEntries(
    allPlans()
      .filter((plan) => plan.apiAccess)
      .map((plan) => [plan.name, { monthly: plan.monthlyLimit, rate: plan.rateLimitPerSecond }]),
  );
  const period = monthPeriod(now);
  const day = startOfUtcDay(now).toISOString().slice(0, 10);

  const values: unknown[] = [hash, apiPlans, period, day, exemptFromMonthlyLimit];
  const rows = await runStatement<AuthorizeRow>(meteringSql(), authorizeStatement(values, read), values);

  const row = rows[0];
  if (!row) return { outcome: 'unknown' };
  if (row.revoked) return { outcome: 'revoked' };
  if (!row.eligible) return { outcome: 'no_api_access', plan: row.plan };

  const plan = allPlans().find((candidate) => candidate.name === row.plan);
  if (!plan) return { outcome: 'no_api_access', plan: row.plan };
  const key: AuthorizedKey = {
    id: row.id,
    label: row.label,
    prefix: row.prefix,
    environment: row.environment,
    scopes: row.scopes,
    workspace: { id: row.workspace_id, name: row.workspace_name },
    plan,
  };

  const counted = row.counted_count !== null;
  const monthlyRequests = row.counted_count ?? row.previous_count ?? 0;
  if (!counted && !exemptFromMonthlyLimit) {
    return { outcome: 'monthly_limit_exceeded', key, monthlyRequests, rate: await currentRateWindow(key.id, day, plan.rateLimitPerSecond) };
  }

  const rate: RateWindow = {
    limit: plan.rateLimitPerSecond,
    used: row.rate_count ?? 0,
    windowStart: row.rate_window ?? now,
  };
  if (rate.used > rate.limit) return { outcome: 'rate_limited', key, monthlyRequests, rate };
  return { outcome: 'ok', key, monthlyRequests, counted, rate, ...(read ? { read: read.parse(row.read ?? null) } : {}) };
}

/**
 * The key's current one-second window, read without counting: for the RateLimit header of a request refused
 * for the monthly allowance (that request is not counted anywhere, so the statement above did not touch the
 * window). A second round trip, but only on that refusal; when it fails the header simply omits the item.
 */
async function currentRateWindow(keyId: number, day: string, limit: number): Promise<RateWindow | null> {
  try {
    const rows = await runStatement<{ used: number; window_start: Date }>(
      meteringSql(),
      `SELECT date_trunc('second', now()) AS window_start,
              COALESCE((SELECT window_count FROM usage_daily
                        WHERE key_id = $1 AND day = $2::date AND window_start = date_trunc('second', now())), 0) AS used`,
      [keyId, day],
    );
    const row = rows[0];
    return row ? { limit, used: row.used, windowStart: row.window_start } : null;
  } catch {
    return null;
  }
}
