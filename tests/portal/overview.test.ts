import { beforeAll, describe, expect, it } from 'vitest';
import { db } from '@/lib/db';
import { cancelInvoice, createInvoice, simulateInvoicePayment } from '@/lib/invoices/invoices';
import { CreateInvoiceBody } from '@/lib/invoices/schemas';
import { createApiKey } from '@/lib/keys/keys';
import { dailyPayments, monthStatusCounts, monthVolume, overviewAlerts, setupProgress } from '@/lib/portal/overview';
import { createWebhookEndpoint } from '@/lib/webhooks/endpoints';
import { createWorkspace } from '../support/fixtures';

// The Overview's queries on the real database (docs/portal.md, "Overview"): exact sums, this month only, one
// workspace and one environment.

const NOW = new Date();
const LAST_MONTH = new Date(Date.UTC(NOW.getUTCFullYear(), NOW.getUTCMonth(), 0, 12));
let a = '';
let b = '';

beforeAll(async () => {
  a = (await createWorkspace()).id;
  b = (await createWorkspace()).id;
  const test = { workspaceId: a, environment: 'test' as const };
  const make = (body: Record<string, unknown>, at = NOW) => createInvoice(test, CreateInvoiceBody.parse(body), at);
  for (const amount of ['0.1', '0.2', '1000000.000001']) {
    const invoice = await make({ amount, currency: 'USDT', network: 'tron' });
    await simulateInvoicePayment(test, invoice.id, NOW);
  }
  // (Fiat-priced invoices need the price feeds: e2e/overview.spec.ts covers their volume.)
  const usdc = await make({ amount: '19.99', currency: 'USDC', network: 'base' });
  await simulateInvoicePayment(test, usdc.id, NOW);
  await cancelInvoice(test, (await make({ amount: '5', currency: 'USDT', network: 'tron' })).id, NOW);
  await make({ amount: '5', currency: 'ETH', network: 'ethereum' });
  // Paid last month: not this month's volume nor its counts.
  const old = await make({ amount: '99', currency: 'USDT', network: 'tron' }, LAST_MONTH);
  await simulateInvoicePayment(test, old.id, new Date(LAST_MONTH.getTime() + 1000));
  // Workspace B pays a lot; A must not see it.
  const other = await createInvoice(
    { workspaceId: b, environment: 'test' },
    CreateInvoiceBody.parse({ amount: '777', currency: 'USDT', network: 'tron' }),
    NOW,
  );
  await simulateInvoicePayment({ workspaceId: b, environment: 'test' }, other.id, NOW);
}, 120_000);

describe('overview figures', () => {
  it('sums this month paid volume exactly per currency', async () => {
    const volume = await monthVolume({ workspaceId: a, environment: 'test' }, NOW);
    const byCurrency = Object.fromEntries(volume.byCurrency.map((row) => [row.currency, row]));
    // 0.1 + 0.2 + 1000000.000001 in numeric: exact, where a float would give 1000000.3000010001.
    expect(byCurrency.USDT!.count).toBe(3);
    expect(byCurrency.USDT!.received).toMatch(/^1000000\.300001(0*)$/);
    expect(byCurrency.USDC).toMatchObject({ count: 1, received: expect.stringMatching(/^19\.99(0*)$/) });
    expect(volume.byFiat).toEqual([]);
    expect(volume.unpricedCount).toBe(4);
    expect(await monthVolume({ workspaceId: a, environment: 'live' }, NOW)).toEqual({
      byCurrency: [],
      byFiat: [],
      unpricedCount: 0,
    });
  });

  it('counts this month invoices by status and paid ones per day', async () => {
    expect(await monthStatusCounts({ workspaceId: a, environment: 'test' }, NOW)).toEqual({
      pending: 1,
      processing: 0,
      paid: 4,
      cancelled: 1,
      expired: 0,
    });
    const days = await dailyPayments({ workspaceId: a, environment: 'test' }, NOW);
    expect(days.find((day) => day.day === NOW.toISOString().slice(0, 10))?.count).toBe(4);
    expect(days.reduce((n, day) => n + day.count, 0)).toBe(4);
  });

  it('alerts on failing endpoints, retrying deliveries and expiring keys of the environment only', async () => {
    const scope = { workspaceId: a, environment: 'test' as const };
    expect(await overviewAlerts(scope, NOW)).toEqual({
      unmatchedPayments: 0,
      failingEndpoints: 0,
      failedDeliveries: 0,
      retryingDeliveries: 0,
      keysExpiringSoon: 0,
    });
    await createApiKey(a, { label: 'soon', environment: 'test', expiresAt: new Date(NOW.getTime() + 2 * 86_400_000) });
    await createApiKey(a, {
      label: 'later',
      environment: 'test',
      expiresAt: new Date(NOW.getTime() + 30 * 86_400_000),
    });
    const { endpoint } = await createWebhookEndpoint(
      a,
      { url: 'https://127.0.0.1:9/hooks', environment: 'test' },
      { allowPrivateNetworks: true },
    );
    // The state the worker leaves after failed attempts (lib/webhooks/deliver.ts).
    await db().webhookEndpoint.update({ where: { id: endpoint.id }, data: { failingSince: NOW } });
    const alerts = await overviewAlerts(scope, NOW);
    expect(alerts).toMatchObject({ failingEndpoints: 1, keysExpiringSoon: 1 });
    expect(await overviewAlerts({ workspaceId: b, environment: 'test' }, NOW)).toMatchObject({
      failingEndpoints: 0,
      keysExpiringSoon: 0,
    });
    expect(await overviewAlerts({ workspaceId: a, environment: 'live' }, NOW)).toMatchObject({
      failingEndpoints: 0,
      keysExpiringSoon: 0,
    });
    expect(await setupProgress(a)).toMatchObject({
      testKey: true,
      testInvoicePaid: true,
      webhookEndpoint: true,
      wallet: false,
      liveInvoice: false,
    });
  });
});
