import { describe, expect, it } from 'vitest';
import { db } from '@/lib/db';
import { serverPlan } from '../support/fixtures';
import { monthPeriod } from '@/lib/usage/period';
import { createKey, monthlyCount, seedAccount } from '../support/fixtures';
import { call, expectProblem } from '../support/http';

describe('GET /v1/me', () => {
  it('describes the key, usage, workspace and plan', async () => {
    const account = await seedAccount({ plan: 'Developer', environment: 'live', scopes: ['invoices:read'] });
    const result = await call('GET', '/v1/me', { key: account.secret });
    expect(result.status).toBe(200);
    expect(result.headers.get('content-type')).toMatch(/^application\/json/);
    expect(result.headers.get('request-id')).toMatch(/^req_[0-9A-Za-z]+$/);
    const developer = await serverPlan('Developer');
    expect(result.json).toEqual({
      key: {
        id: account.key.id,
        label: 'test key',
        prefix: account.key.prefix,
        environment: 'live',
        scopes: ['invoices:read'],
      },
      usage: { monthly_requests: 1, monthly_limit: developer.monthlyLimit },
      workspace: { id: account.workspace.id, name: account.workspace.name },
      plan: {
        name: 'Developer',
        api_access: true,
        monthly_limit: developer.monthlyLimit,
        rate_limit_per_second: developer.rateLimitPerSecond,
      },
    });
    expect(account.key.prefix).toMatch(/^live_[0-9A-Za-z]{8}$/);
    expect(account.secret.startsWith(account.key.prefix)).toBe(true);
  });

  it('a key created without scopes has both', async () => {
    const account = await seedAccount({ plan: 'Developer' });
    const result = await call('GET', '/v1/me', { key: account.secret });
    expect(result.json.key.scopes).toEqual(['invoices:read', 'invoices:write']);
    expect(result.json.key.environment).toBe('test');
  });

  it('counts each successful request once', async () => {
    const account = await seedAccount({ plan: 'Developer' });
    for (let i = 1; i <= 3; i++) {
      const result = await call('GET', '/v1/me', { key: account.secret });
      expect(result.json.usage.monthly_requests).toBe(i);
    }
    expect(await monthlyCount(account.workspace.id)).toBe(3);
  });

  it('answers at the monthly limit without counting, while other endpoints get 429', async () => {
    const account = await seedAccount({ plan: 'Developer' });
    const limit = (await serverPlan('Developer')).monthlyLimit;
    await db().usageMonthly.create({
      data: { workspaceId: account.workspace.id, period: monthPeriod(new Date()), count: limit },
    });

    const me = await call('GET', '/v1/me', { key: account.secret });
    expect(me.status).toBe(200);
    expect(me.json.usage).toEqual({ monthly_requests: limit, monthly_limit: limit });

    const list = await call('GET', '/v1/invoices', { key: account.secret });
    expectProblem(list, 429, 'monthly_limit_exceeded');
    expect(Number(list.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await monthlyCount(account.workspace.id)).toBe(limit);
  });

  it('usage is per workspace: keys of one workspace share the count', async () => {
    const account = await seedAccount({ plan: 'Business' });
    const second = await createKey(account.workspace.id, { environment: 'live' });
    await call('GET', '/v1/me', { key: account.secret });
    const result = await call('GET', '/v1/me', { key: second.secret });
    expect(result.json.usage.monthly_requests).toBe(2);
  });

  it('carries RateLimit-Policy and RateLimit for the per-second and monthly policies', async () => {
    const account = await seedAccount({ plan: 'Developer' });
    const result = await call('GET', '/v1/me', { key: account.secret });
    const { rate_limit_per_second: perSecond, monthly_limit: monthly } = result.json.plan;
    expect(result.headers.get('ratelimit-policy')).toMatch(
      new RegExp(
        `^"per-second";q=${perSecond};w=1, "workspace";q=${2 * perSecond};w=1, "monthly";q=${monthly};w=\\d+$`,
      ),
    );
    expect(result.headers.get('ratelimit')).toMatch(
      new RegExp(
        `^"per-second";r=${perSecond - 1};t=1, "workspace";r=${2 * perSecond - 1};t=1, "monthly";r=${monthly - 1};t=\\d+$`,
      ),
    );
  });

  it('refuses Trial and Merchant plans on /v1/me too', async () => {
    for (const plan of ['Trial', 'Merchant'] as const) {
      const account = await seedAccount({ plan });
      expectProblem(await call('GET', '/v1/me', { key: account.secret }), 403, 'plan_without_api_access');
    }
  });
});
