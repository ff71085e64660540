import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAdditionalApp, type AppInstance } from '../setup/app';
import { seedAccount } from '../support/fixtures';
import { call, expectProblem } from '../support/http';

/** The per-key rate limit is kept in PostgreSQL, so it holds across app instances sharing the database. */
describe('per-second rate limit across two instances', () => {
  const LIMIT = 5;
  let instances: AppInstance[] = [];

  beforeAll(async () => {
    const env = { PLAN_BUSINESS_RATE_LIMIT: String(LIMIT), PLAN_BUSINESS_MONTHLY_LIMIT: '1000000' };
    instances = await Promise.all([startAdditionalApp({ env }), startAdditionalApp({ env })]);
  });
  afterAll(async () => {
    await Promise.all(instances.map((instance) => instance.stop()));
  });

  async function startOfNextSecond() {
    await new Promise((resolve) => setTimeout(resolve, 1000 - (Date.now() % 1000) + 20));
  }

  it('a burst over both instances allows at most the limit per one-second window; the rest get 429 with agreeing headers', async () => {
    const account = await seedAccount({ plan: 'Business' });
    await startOfNextSecond();
    const results = await Promise.all(
      Array.from({ length: 40 }, (_, i) => call('GET', '/v1/me', { key: account.secret, base: instances[i % 2]!.baseUrl })),
    );
    const allowed = results.filter((r) => r.status === 200);
    const limited = results.filter((r) => r.status === 429);
    expect(allowed.length + limited.length).toBe(40);
    // The burst is aligned to a second boundary and takes well under a second, but a slow machine may let it
    // straddle one boundary: allow at most one window more, never more than the limit per window.
    const windows = new Set(results.map((r) => /"per-second";r=\d+;t=(\d+)/.exec(r.headers.get('ratelimit') ?? '')?.[1]));
    expect(allowed.length).toBeGreaterThanOrEqual(LIMIT);
    expect(allowed.length).toBeLessThanOrEqual(LIMIT * 2);
    if (windows.size === 1) expect(allowed.length).toBe(LIMIT);

    for (const result of limited) {
      const problem = expectProblem(result, 429, 'rate_limited');
      expect(problem.detail).toContain(`${LIMIT} requests per second`);
      const retryAfter = Number(result.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(result.headers.get('ratelimit')).toMatch(new RegExp(`^"per-second";r=0;t=${retryAfter}, "monthly";r=\\d+;t=\\d+$`));
    }
    for (const result of results) {
      expect(result.headers.get('ratelimit-policy')).toMatch(new RegExp(`^"per-second";q=${LIMIT};w=1, "monthly";q=1000000;w=\\d+$`));
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
});
