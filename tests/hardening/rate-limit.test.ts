import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { monthPeriod } from '@/lib/usage/period';
import { startAdditionalApp, type AppInstance } from '../setup/app';
import { seedAccount, VALID_INVOICE } from '../support/fixtures';
import { call, expectProblem, type CallResult } from '../support/http';

/** The per-key rate limit is kept in PostgreSQL, so it holds across app instances sharing the database. */
describe('per-second rate limit across two instances', () => {
  const LIMIT = 5;
  const MONTHLY = 1_000_000;
  let instances: AppInstance[] = [];
  let admin: pg.Client;

  beforeAll(async () => {
    const env = { PLAN_BUSINESS_RATE_LIMIT: String(LIMIT), PLAN_BUSINESS_MONTHLY_LIMIT: String(MONTHLY) };
    instances = await Promise.all([startAdditionalApp({ env }), startAdditionalApp({ env })]);
    admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await admin.connect();
  });
  afterAll(async () => {
    await admin?.end();
    await Promise.all(instances.map((instance) => instance.stop()));
  });

  async function startOfNextSecond() {
    await new Promise((resolve) => setTimeout(resolve, 1000 - (Date.now() % 1000) + 20));
  }

  /** The database's clock, in whole seconds: the rate windows are date_trunc('second', now()) of that clock. */
  async function databaseSecond(): Promise<number> {
    const { rows } = await admin.query<{ s: string }>(`SELECT floor(extract(epoch FROM clock_timestamp()))::bigint AS s`);
    return Number(rows[0]!.s);
  }

  const perSecondItem = (result: CallResult) => /"per-second";r=(\d+);t=(\d+)/.exec(result.headers.get('ratelimit') ?? '');

  it('a burst over both instances: at most the limit per one-second window (windows counted on the database clock); 429s carry agreeing headers', async () => {
    const account = await seedAccount({ plan: 'Business' });
    await startOfNextSecond();
    const first = await databaseSecond();
    const results = await Promise.all(
      Array.from({ length: 40 }, (_, i) => call('GET', '/v1/me', { key: account.secret, base: instances[i % 2]!.baseUrl })),
    );
    const last = await databaseSecond();
    // Every request's window lies between the two readings of the database clock.
    const windows = last - first + 1;

    const allowed = results.filter((r) => r.status === 200);
    const limited = results.filter((r) => r.status === 429);
    expect(allowed.length + limited.length).toBe(40);
    expect(allowed.length).toBeLessThanOrEqual(LIMIT * windows);
    if (windows === 1) expect(allowed.length).toBe(LIMIT);
    // Within one window the allowed requests see distinct remaining counts LIMIT-1 … 0: no value more often than there were windows.
    const remaining = allowed.map((r) => Number(perSecondItem(r)?.[1]));
    for (const value of new Set(remaining)) {
      expect(value).toBeGreaterThanOrEqual(0);
      expect(value).toBeLessThan(LIMIT);
      expect(remaining.filter((r) => r === value).length).toBeLessThanOrEqual(windows);
    }

    for (const result of limited) {
      const problem = expectProblem(result, 429, 'rate_limited');
      expect(problem.detail).toContain(`${LIMIT} requests per second`);
      const retryAfter = Number(result.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(result.headers.get('ratelimit')).toMatch(new RegExp(`^"per-second";r=0;t=${retryAfter}, "monthly";r=\\d+;t=\\d+$`));
    }
    for (const result of results) {
      expect(result.headers.get('ratelimit-policy')).toMatch(new RegExp(`^"per-second";q=${LIMIT};w=1, "monthly";q=${MONTHLY};w=\\d+$`));
    }
  });

  it('the key works again once the window has passed', async () => {
    const account = await seedAccount({ plan: 'Business' });
    await startOfNextSecond();
    await Promise.all(Array.from({ length: LIMIT + 3 }, () => call('GET', '/v1/me', { key: account.secret, base: instances[0]!.baseUrl })));
    await startOfNextSecond();
    const again = await call('GET', '/v1/me', { key: account.secret, base: instances[1]!.baseUrl });
    expect(again.status).toBe(200);
    expect(again.headers.get('ratelimit')).toMatch(new RegExp(`^"per-second";r=${LIMIT - 1};t=1`));
  });

  it('rate-limited requests are counted in the month: they passed steps 1–3', async () => {
    const account = await seedAccount({ plan: 'Business' });
    await startOfNextSecond();
    const results = await Promise.all(Array.from({ length: LIMIT + 5 }, () => call('GET', '/v1/invoices', { key: account.secret, base: instances[0]!.baseUrl })));
    expect(results.filter((r) => r.status === 429).length).toBeGreaterThan(0);
    await startOfNextSecond();
    const me = await call('GET', '/v1/me', { key: account.secret, base: instances[1]!.baseUrl });
    expect(me.status).toBe(200);
    expect(me.json.usage.monthly_requests).toBe(LIMIT + 5 + 1);
  });

  it('both policies appear in RateLimit on every authenticated outcome: 2xx, 400, 403 scope, 404, 429 rate, 429 monthly', async () => {
    const account = await seedAccount({ plan: 'Business' });
    const readOnly = await seedAccount({ plan: 'Business', scopes: ['invoices:read'] });
    const base = instances[0]!.baseUrl;
    const both = /^"per-second";r=\d+;t=\d+, "monthly";r=\d+;t=\d+$/;
    await startOfNextSecond();
    const outcomes = [
      await call('GET', '/v1/me', { key: account.secret, base }),
      await call('POST', '/v1/invoices', { key: account.secret, body: { ...VALID_INVOICE, amount: '-1' }, base }),
      await call('GET', '/v1/invoices/inv_000000000000000000000000', { key: account.secret, base }),
      await call('POST', '/v1/invoices', { key: readOnly.secret, body: VALID_INVOICE, base }),
    ];
    expect(outcomes.map((r) => r.status)).toEqual([200, 400, 404, 403]);
    for (const result of outcomes) expect(result.headers.get('ratelimit'), String(result.status)).toMatch(both);

    // The workspace at its monthly allowance: the refusal is not counted, yet reports the key's per-second state.
    await admin.query(
      `INSERT INTO usage_monthly (workspace_id, period, count) VALUES ($1, $2, $3)
       ON CONFLICT (workspace_id, period) DO UPDATE SET count = EXCLUDED.count`,
      [account.workspace.id, monthPeriod(new Date()), MONTHLY],
    );
    await startOfNextSecond();
    await call('GET', '/v1/me', { key: account.secret, base }); // counted in the window, not in the month
    const refused = await call('GET', '/v1/invoices', { key: account.secret, base });
    expectProblem(refused, 429, 'monthly_limit_exceeded');
    const header = refused.headers.get('ratelimit') ?? '';
    expect(header).toMatch(both);
    expect(header).toMatch(new RegExp(`"monthly";r=0;t=${refused.headers.get('retry-after')}$`));
    expect(header).toMatch(new RegExp(`^"per-second";r=(${LIMIT - 1}|${LIMIT});t=1,`)); // r=LIMIT when the second rolled over in between
  });
});
