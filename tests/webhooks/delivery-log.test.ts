import { describe, expect, it } from 'vitest';
import { db } from '@/lib/db';
import { DELIVERIES_PAGE_SIZE, endpointHealthById, listDeliveries } from '@/lib/webhooks/deliveries';
import { createWebhookEndpoint, sendTestEvent } from '@/lib/webhooks/endpoints';
import { seedAccount } from '../support/fixtures';

// No worker runs here: the deliveries stay queued (never tried), which is all the paging needs.
async function endpointWithDeliveries(count: number) {
  const account = await seedAccount();
  const { endpoint } = await createWebhookEndpoint(
    account.workspace.id,
    { url: 'http://127.0.0.1:9/hooks', environment: 'test', event_types: [] },
    { allowPrivateNetworks: true },
  );
  for (let i = 0; i < count; i++) await sendTestEvent(account.workspace.id, endpoint.id);
  return { workspaceId: account.workspace.id, endpoint };
}

describe('the portal delivery log', () => {
  it('pages by keyset, 50 a page, newest first, forwards and back, without gaps or repeats', async () => {
    const { workspaceId, endpoint } = await endpointWithDeliveries(DELIVERIES_PAGE_SIZE * 2 + 7);
    const all = await db().webhookDelivery.findMany({
      where: { endpointId: endpoint.id },
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      select: { id: true },
    });
    expect(all).toHaveLength(107);

    const first = await listDeliveries(workspaceId, endpoint.id);
    expect(first.deliveries).toHaveLength(50);
    expect(first.newer).toBeNull();
    const second = await listDeliveries(workspaceId, endpoint.id, first.older);
    expect(second.deliveries).toHaveLength(50);
    const third = await listDeliveries(workspaceId, endpoint.id, second.older);
    expect(third.deliveries).toHaveLength(7);
    expect(third.older).toBeNull();
    expect([...first.deliveries, ...second.deliveries, ...third.deliveries].map((d) => d.id)).toEqual(
      all.map((d) => d.id),
    );

    // Back from the last page: the same second page, then the first (which has no newer page).
    const backToSecond = await listDeliveries(workspaceId, endpoint.id, third.newer);
    expect(backToSecond.deliveries.map((d) => d.id)).toEqual(second.deliveries.map((d) => d.id));
    expect(backToSecond.older).toEqual(second.older);
    const backToFirst = await listDeliveries(workspaceId, endpoint.id, backToSecond.newer);
    expect(backToFirst.deliveries.map((d) => d.id)).toEqual(first.deliveries.map((d) => d.id));
    expect(backToFirst.newer).toBeNull();

    // A delivery created meanwhile does not shift the older pages.
    await sendTestEvent(workspaceId, endpoint.id);
    expect((await listDeliveries(workspaceId, endpoint.id, first.older)).deliveries.map((d) => d.id)).toEqual(
      second.deliveries.map((d) => d.id),
    );
  });

  it('is scoped by workspace; an unknown or malformed cursor reads the first page', async () => {
    const { workspaceId, endpoint } = await endpointWithDeliveries(3);
    const other = await endpointWithDeliveries(1);
    expect((await listDeliveries(other.workspaceId, endpoint.id)).deliveries).toEqual([]);
    const foreignCursor = (await listDeliveries(other.workspaceId, other.endpoint.id)).deliveries[0]!.id;
    for (const cursor of [{ after: foreignCursor }, { before: 'whd_nope' }, { after: "'; DROP TABLE x; --" }]) {
      const page = await listDeliveries(workspaceId, endpoint.id, cursor);
      expect(page.deliveries).toHaveLength(3);
      expect(page.newer).toBeNull();
    }
  });

  it('health: queued deliveries that were never tried are "no deliveries yet"; another workspace reads nothing', async () => {
    const { workspaceId, endpoint } = await endpointWithDeliveries(2);
    const health = (await endpointHealthById(workspaceId, [endpoint])).get(endpoint.id)!;
    expect(health).toMatchObject({
      state: 'no_deliveries',
      lastAttempt: null,
      consecutiveFailures: 0,
      window: { attempted: 0, delivered: 0 },
    });
    const other = await seedAccount();
    expect((await endpointHealthById(other.workspace.id, [endpoint])).get(endpoint.id)!.state).toBe('no_deliveries');
  });
});
