import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { monthPeriod } from '@/lib/usage/period';
import { startAdditionalApp, type AppInstance } from '../setup/app';
import { createKey, seedAccount, serverPlan, VALID_INVOICE } from '../support/fixtures';
import { call, expectProblem, type CallResult } from '../support/http';

/**
 * The per-second limit is a token bucket per key (capacity = the plan's figure, refilled continuously) and one
 * per workspace and environment (twice that), kept in PostgreSQL, so it holds across app instances. Bounds are
 * computed from the database's own clock around each burst (tokens refill with time), never from sleeps.
 */
const perSecondItem = (result: CallResult) =>
  /"per-second";r=(\d+);t=(\d+)/.exec(result.headers.get('ratelimit') ?? '');
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('token bucket on the default server (Developer plan)', () => {
  let admin: pg.Client;
  beforeAll(async () => {
    admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await admin.connect();
  });
  afterAll(async () => admin?.end());

  async function databaseSeconds(): Promise<number> {
    const { rows } = await admin.query<{ s: string }>(`SELECT extract(epoch FROM clock_timestamp())::float8 AS s`);
    return Number(rows[0]!.s);
  }

  it('defaults: Developer 25/s; a sequential client at 20 requests per second is never limited', async () => {
    const { rateLimitPerSecond } = await serverPlan('Developer');
    expect(rateLimitPerSecond).toBe(25);
    const account = await seedAccount({ plan: 'Developer' });
    const statuses: number[] = [];
    // 60 requests, one after the other, none sooner than 50 ms after the previous one started (≤ 20/s).
    for (let i = 0; i < 60; i++) {
      const started = Date.now();
      statuses.push((await call('GET', '/v1/me', { key: account.secret })).status);
      await pause(Math.max(0, 50 - (Date.now() - started)));
    }
    expect(statuses.filter((s) => s !== 200)).toEqual([]);
  });

  it('a burst of 80 parallel requests gets about 25 through; a second later the bucket is full again', async () => {
    const account = await seedAccount({ plan: 'Developer' });
    const first = await databaseSeconds();
    const burst = await Promise.all(Array.from({ length: 80 }, () => call('GET', '/v1/me', { key: account.secret })));
    const elapsed = (await databaseSeconds()) - first;
    const ok = burst.filter((r) => r.status === 200).length;
    expect(ok).toBeGreaterThanOrEqual(25);
    expect(ok).toBeLessThanOrEqual(25 + Math.ceil(elapsed * 25));
    for (const refused of burst.filter((r) => r.status !== 200)) {
      expectProblem(refused, 429, 'rate_limited');
      expect(refused.json.detail).toContain('25 requests per second');
      expect(refused.headers.get('retry-after')).toBe('1');
      expect(refused.headers.get('ratelimit')).toMatch(
        /^"per-second";r=0;t=1, "workspace";r=\d+;t=\d+, "monthly";r=\d+;t=\d+$/,
      );
    }
    // A full refill takes 1 s at 25 tokens/s: after it, 25 parallel requests all pass.
    await pause(1100);
    const again = await Promise.all(Array.from({ length: 25 }, () => call('GET', '/v1/me', { key: account.secret })));
    expect(again.map((r) => r.status).filter((s) => s !== 200)).toEqual([]);
  });

  it('headers tell the truth: the first request of a fresh key leaves 24 of 25 and 49 of 50, full again within 1 s', async () => {
    const { rateLimitPerSecond: q, monthlyLimit } = await serverPlan('Developer');
    const account = await seedAccount({ plan: 'Developer' });
    const result = await call('GET', '/v1/me', { key: account.secret });
    expect(result.headers.get('ratelimit-policy')).toMatch(
      new RegExp(`^"per-second";q=${q};w=1, "workspace";q=${2 * q};w=1, "monthly";q=${monthlyLimit};w=\\d+$`),
    );
    expect(result.headers.get('ratelimit')).toMatch(
      new RegExp(
        `^"per-second";r=${q - 1};t=1, "workspace";r=${2 * q - 1};t=1, "monthly";r=${monthlyLimit - 1};t=\\d+$`,
      ),
    );
  });
});

describe('token buckets across two instances', () => {
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

  async function databaseSeconds(): Promise<number> {
    const { rows } = await admin.query<{ s: string }>(`SELECT extract(epoch FROM clock_timestamp())::float8 AS s`);
    return Number(rows[0]!.s);
  }

  it('one key, a burst over both instances: at most capacity + refill during the burst; 429s carry agreeing headers', async () => {
    const account = await seedAccount({ plan: 'Business' });
    const first = await databaseSeconds();
    const results = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        call('GET', '/v1/me', { key: account.secret, base: instances[i % 2]!.baseUrl }),
      ),
    );
    const elapsed = (await databaseSeconds()) - first;
    const allowed = results.filter((r) => r.status === 200);
    const limited = results.filter((r) => r.status === 429);
    expect(allowed.length + limited.length).toBe(40);
    expect(allowed.length).toBeGreaterThanOrEqual(LIMIT);
    expect(allowed.length).toBeLessThanOrEqual(LIMIT + Math.ceil(elapsed * LIMIT));
    for (const result of limited) {
      const problem = expectProblem(result, 429, 'rate_limited');
      expect(problem.detail).toContain(`${LIMIT} requests per second`);
      expect(result.headers.get('retry-after')).toBe('1');
      expect(result.headers.get('ratelimit')).toMatch(
        /^"per-second";r=0;t=1, "workspace";r=\d+;t=\d+, "monthly";r=\d+;t=\d+$/,
      );
    }
    for (const result of results) {
      expect(result.headers.get('ratelimit-policy')).toMatch(
        new RegExp(`^"per-second";q=${LIMIT};w=1, "workspace";q=${2 * LIMIT};w=1, "monthly";q=${MONTHLY};w=\\d+$`),
      );
    }
  });

  it('three keys of one workspace, bursts over both instances: together within the workspace bucket (twice the plan figure)', async () => {
    const account = await seedAccount({ plan: 'Business' });
    const others = await Promise.all([createKey(account.workspace.id), createKey(account.workspace.id)]);
    const keys = [account.secret, ...others.map((k) => k.secret)];
    const first = await databaseSeconds();
    const results = await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        call('GET', '/v1/me', { key: keys[i % 3], base: instances[i % 2]!.baseUrl }),
      ),
    );
    const elapsed = (await databaseSeconds()) - first;
    const allowed = results.filter((r) => r.status === 200).length;
    expect(allowed).toBeGreaterThanOrEqual(2 * LIMIT);
    expect(allowed).toBeLessThanOrEqual(2 * LIMIT + Math.ceil(elapsed * 2 * LIMIT));
    const byWorkspace = results.filter(
      (r) => r.status === 429 && String(r.json.detail).includes(`together allow ${2 * LIMIT} requests per second`),
    );
    expect(byWorkspace.length).toBeGreaterThan(0);
  });

  it('the key works again once tokens have refilled', async () => {
    const account = await seedAccount({ plan: 'Business' });
    await Promise.all(
      Array.from({ length: LIMIT + 3 }, () =>
        call('GET', '/v1/me', { key: account.secret, base: instances[0]!.baseUrl }),
      ),
    );
    await pause(1100);
    const again = await call('GET', '/v1/me', { key: account.secret, base: instances[1]!.baseUrl });
    expect(again.status).toBe(200);
    expect(perSecondItem(again)?.[1]).toBe(String(LIMIT - 1));
  });

  it('rate-limited requests are counted in the month: they passed steps 1–3', async () => {
    const account = await seedAccount({ plan: 'Business' });
    const results = await Promise.all(
      Array.from({ length: LIMIT + 5 }, () =>
        call('GET', '/v1/invoices', { key: account.secret, base: instances[0]!.baseUrl }),
      ),
    );
    const limited = results.filter((r) => r.status === 429).length;
    expect(limited).toBeGreaterThan(0);
    await pause(1100);
    const me = await call('GET', '/v1/me', { key: account.secret, base: instances[1]!.baseUrl });
    expect(me.status).toBe(200);
    expect(me.json.usage.monthly_requests).toBe(LIMIT + 5 + 1);
  });

  it('every policy appears in RateLimit on every authenticated outcome: 2xx, 400, 403 scope, 404, 429 rate, 429 monthly', async () => {
    const account = await seedAccount({ plan: 'Business' });
    const readOnly = await seedAccount({ plan: 'Business', scopes: ['invoices:read'] });
    const base = instances[0]!.baseUrl;
    const all = /^"per-second";r=\d+;t=\d+, "workspace";r=\d+;t=\d+, "monthly";r=\d+;t=\d+$/;
    const outcomes = [
      await call('GET', '/v1/me', { key: account.secret, base }),
      await call('POST', '/v1/invoices', { key: account.secret, body: { ...VALID_INVOICE, amount: '-1' }, base }),
      await call('GET', '/v1/invoices/inv_000000000000000000000000', { key: account.secret, base }),
      await call('POST', '/v1/invoices', { key: readOnly.secret, body: VALID_INVOICE, base }),
    ];
    expect(outcomes.map((r) => r.status)).toEqual([200, 400, 404, 403]);
    for (const result of outcomes) expect(result.headers.get('ratelimit'), String(result.status)).toMatch(all);

    // The workspace at its monthly allowance: the refusal takes no token, yet reports the key's bucket as it stands.
    await admin.query(
      `INSERT INTO usage_monthly (workspace_id, period, count) VALUES ($1, $2, $3)
       ON CONFLICT (workspace_id, period) DO UPDATE SET count = EXCLUDED.count`,
      [account.workspace.id, monthPeriod(new Date()), MONTHLY],
    );
    await pause(1100);
    const refused = await call('GET', '/v1/invoices', { key: account.secret, base });
    expectProblem(refused, 429, 'monthly_limit_exceeded');
    const header = refused.headers.get('ratelimit') ?? '';
    expect(header).toMatch(all);
    expect(header).toMatch(new RegExp(`"monthly";r=0;t=${refused.headers.get('retry-after')}$`));
    expect(header).toMatch(new RegExp(`^"per-second";r=${LIMIT};t=0, "workspace";r=${2 * LIMIT};t=0,`));
  });
});
