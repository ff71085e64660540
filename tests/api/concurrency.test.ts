import { describe, expect, it } from 'vitest';
import { db } from '@/lib/db';
import { createInvoice } from '@/lib/invoices/invoices';
import { monthPeriod } from '@/lib/usage/period';
import { createKey, monthlyCount, seedAccount, serverPlan, VALID_INVOICE } from '../support/fixtures';
import { call } from '../support/http';
import { startAdditionalApp } from '../setup/app';

describe('concurrency', () => {
  it('200 parallel requests on a workspace with a limit of 100, over two instances: exactly 100 succeed, 100 stored', async () => {
    // Two more app instances configured with a monthly allowance of 100, sharing the test database.
    const env = { PLAN_BUSINESS_MONTHLY_LIMIT: '100', PLAN_BUSINESS_RATE_LIMIT: '1000' };
    const instances = await Promise.all([startAdditionalApp({ env }), startAdditionalApp({ env })]);
    try {
      const account = await seedAccount({ plan: 'Business' });
      const keys = [
        account.secret,
        ...(await Promise.all(Array.from({ length: 9 }, () => createKey(account.workspace.id)))).map((k) => k.secret),
      ];
      const results = await Promise.all(
        Array.from({ length: 200 }, (_, i) =>
          call('GET', '/v1/invoices?limit=1', { key: keys[i % keys.length], base: instances[i % 2]?.baseUrl }),
        ),
      );
      expect(results.filter((r) => r.status === 200)).toHaveLength(100);
      const refused = results.filter((r) => r.status !== 200);
      expect(refused).toHaveLength(100);
      expect(refused.every((r) => r.status === 429 && r.json.code === 'monthly_limit_exceeded')).toBe(true);
      expect(await monthlyCount(account.workspace.id)).toBe(100);
    } finally {
      await Promise.all(instances.map((instance) => instance.stop()));
    }
  });

  it('with 100 left of the default allowance, 200 parallel requests: exactly 100 succeed, the count stops at the limit', async () => {
    const limit = (await serverPlan('Business')).monthlyLimit;
    const account = await seedAccount({ plan: 'Business' });
    const keys = [
      account.secret,
      ...(await Promise.all(Array.from({ length: 9 }, () => createKey(account.workspace.id)))).map((k) => k.secret),
    ];
    await db().usageMonthly.create({
      data: { workspaceId: account.workspace.id, period: monthPeriod(new Date()), count: limit - 100 },
    });

    const results = await Promise.all(
      Array.from({ length: 200 }, (_, i) => call('GET', '/v1/invoices?limit=1', { key: keys[i % keys.length] })),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(100);
    expect(results.filter((r) => r.status === 429 && r.json.code === 'monthly_limit_exceeded')).toHaveLength(100);
    expect(await monthlyCount(account.workspace.id)).toBe(limit);
  });

  it('200 parallel first requests of a fresh workspace are each counted exactly once', async () => {
    const account = await seedAccount({ plan: 'Business' });
    const keys = [
      account.secret,
      ...(await Promise.all(Array.from({ length: 9 }, () => createKey(account.workspace.id)))).map((k) => k.secret),
    ];
    const results = await Promise.all(
      Array.from({ length: 200 }, (_, i) => call('GET', '/v1/me', { key: keys[i % keys.length] })),
    );
    expect(results.every((r) => r.status === 200)).toBe(true);
    expect(await monthlyCount(account.workspace.id)).toBe(200);
    const daily = await db().usageDaily.aggregate({
      where: { workspaceId: account.workspace.id },
      _sum: { count: true },
    });
    expect(daily._sum.count).toBe(200);
  });

  it('50 invoices each hit by a parallel cancel and simulate-payment: exactly one wins each', async () => {
    const account = await seedAccount({ plan: 'Business' });
    const scope = { workspaceId: account.workspace.id, environment: 'test' as const };
    const invoices = await Promise.all(
      Array.from({ length: 50 }, () => createInvoice(scope, { ...VALID_INVOICE, expires_in: 3600 })),
    );
    const keys = [
      account.secret,
      ...(await Promise.all(Array.from({ length: 4 }, () => createKey(account.workspace.id)))).map((k) => k.secret),
    ];

    const outcomes = await Promise.all(
      invoices.map(async (invoice, i) => {
        const key = keys[i % keys.length];
        const [cancel, pay] = await Promise.all([
          call('POST', `/v1/invoices/${invoice.id}/cancel`, { key }),
          call('POST', `/v1/test/invoices/${invoice.id}/simulate-payment`, { key }),
        ]);
        return { id: invoice.id, cancel, pay };
      }),
    );
    for (const { id, cancel, pay } of outcomes) {
      const statuses = [cancel.status, pay.status].sort();
      expect(statuses, `${id}: ${cancel.text} / ${pay.text}`).toEqual([200, 409]);
      const stored = await db().invoice.findUniqueOrThrow({ where: { id } });
      if (cancel.status === 200) {
        expect(stored.status).toBe('cancelled');
        expect(pay.json.code).toBe('invoice_not_payable');
        expect(stored.paidAt).toBeNull();
      } else {
        expect(stored.status).toBe('paid');
        expect(cancel.json.code).toBe('invoice_not_cancellable');
        expect(stored.cancelledAt).toBeNull();
      }
    }
  });
});
