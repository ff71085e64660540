import { describe, expect, it } from 'vitest';
import { db } from '@/lib/db';
import { recordInvoiceEvents } from '@/lib/invoices/invoice-events';
import { createKey, seedAccount, VALID_INVOICE } from '../support/fixtures';
import { call, expectProblem } from '../support/http';

async function events(secret: string, query = '') {
  const result = await call('GET', `/v1/events${query}`, { key: secret });
  expect(result.status).toBe(200);
  return result.json as {
    data: Array<{ id: string; type: string; data: { object: { id: string; status: string } } }>;
    has_more: boolean;
    next_cursor: string | null;
  };
}

describe('events: written with every invoice change', () => {
  it('create, cancel and simulated payment each record one event with the invoice as GET showed it then', async () => {
    const { secret } = await seedAccount();
    const first = (await call('POST', '/v1/invoices', { key: secret, body: VALID_INVOICE })).json;
    const cancelled = (await call('POST', `/v1/invoices/${first.id}/cancel`, { key: secret })).json;
    const second = (await call('POST', '/v1/invoices', { key: secret, body: { ...VALID_INVOICE, order_id: 'o-2' } }))
      .json;
    const paid = (await call('POST', `/v1/test/invoices/${second.id}/simulate-payment`, { key: secret })).json;

    const list = await events(secret);
    expect(list.data.map((event) => [event.type, event.data.object.id])).toEqual([
      ['invoice.paid', second.id],
      ['invoice.created', second.id],
      ['invoice.cancelled', first.id],
      ['invoice.created', first.id],
    ]);
    const byId = (await call('GET', `/v1/events/${list.data[0]!.id}`, { key: secret })).json;
    expect(byId).toMatchObject({ object: 'event', type: 'invoice.paid', environment: 'test' });
    expect(byId.data.object).toEqual(paid);
    expect(list.data[2]!.data.object).toEqual(cancelled);
    expect(list.data[3]!.data.object).toEqual(first);
    expect(list.data[3]!.data.object.status).toBe('pending');
  });

  it('a refused change records nothing: 409 conflict, 422 without wallet, a rolled-back transaction', async () => {
    const { secret, workspace } = await seedAccount();
    const invoice = (await call('POST', '/v1/invoices', { key: secret, body: VALID_INVOICE })).json;
    await call('POST', `/v1/invoices/${invoice.id}/cancel`, { key: secret });
    expectProblem(
      await call('POST', `/v1/invoices/${invoice.id}/cancel`, { key: secret }),
      409,
      'invoice_not_cancellable',
    );
    expectProblem(
      await call('POST', `/v1/test/invoices/${invoice.id}/simulate-payment`, { key: secret }),
      409,
      'invoice_not_payable',
    );
    const live = await seedAccount({ environment: 'live' });
    const watched = { ...VALID_INVOICE, network: 'ethereum' }; // the test setup watches ethereum on a local chain
    expectProblem(
      await call('POST', '/v1/invoices', { key: live.secret, body: watched }),
      422,
      'wallet_not_configured',
    );
    expectProblem(
      await call('POST', '/v1/invoices', { key: live.secret, body: { ...VALID_INVOICE, network: 'polygon' } }),
      422,
      'network_not_watched',
    );
    expect(await db().event.count({ where: { workspaceId: live.workspace.id } })).toBe(0);

    await expect(
      db().$transaction(async (tx) => {
        await recordInvoiceEvents(tx, [invoice.id], 'invoice.paid');
        throw new Error('the change failed after its event was written');
      }),
    ).rejects.toThrow('the change failed');
    const types = (await db().event.findMany({ where: { workspaceId: workspace.id }, orderBy: { seq: 'asc' } })).map(
      (event) => event.type,
    );
    expect(types).toEqual(['invoice.created', 'invoice.cancelled']);
  });

  it('of a concurrent cancel and payment exactly one succeeds, and only it has an event', async () => {
    const { secret, workspace } = await seedAccount();
    const invoice = (await call('POST', '/v1/invoices', { key: secret, body: VALID_INVOICE })).json;
    const results = await Promise.all([
      call('POST', `/v1/invoices/${invoice.id}/cancel`, { key: secret }),
      call('POST', `/v1/test/invoices/${invoice.id}/simulate-payment`, { key: secret }),
    ]);
    expect(results.map((result) => result.status).sort()).toEqual([200, 409]);
    const winner = results.find((result) => result.status === 200)!.json;
    const types = (await db().event.findMany({ where: { workspaceId: workspace.id }, orderBy: { seq: 'asc' } })).map(
      (event) => event.type,
    );
    expect(types).toEqual(['invoice.created', winner.status === 'paid' ? 'invoice.paid' : 'invoice.cancelled']);
  });
});

describe('GET /v1/events', () => {
  it('paginates newest first with a cursor, filters by type, and validates its query', async () => {
    const { secret } = await seedAccount();
    for (let i = 0; i < 3; i++) await call('POST', '/v1/invoices', { key: secret, body: VALID_INVOICE });
    const invoice = (await call('POST', '/v1/invoices', { key: secret, body: VALID_INVOICE })).json;
    await call('POST', `/v1/invoices/${invoice.id}/cancel`, { key: secret });

    const page1 = await events(secret, '?limit=2');
    expect(page1.data).toHaveLength(2);
    expect(page1.has_more).toBe(true);
    const page2 = await events(secret, `?limit=2&starting_after=${page1.next_cursor}`);
    const page3 = await events(secret, `?limit=2&starting_after=${page2.next_cursor}`);
    expect(page3.has_more).toBe(false);
    const all = [...page1.data, ...page2.data, ...page3.data];
    expect(new Set(all.map((event) => event.id)).size).toBe(5);

    const cancelled = await events(secret, '?type=invoice.cancelled');
    expect(cancelled.data.map((event) => event.data.object.id)).toEqual([invoice.id]);
    expectProblem(await call('GET', '/v1/events?type=invoice.nope', { key: secret }), 400, 'validation_failed');
    expectProblem(await call('GET', '/v1/events?limit=101', { key: secret }), 400, 'validation_failed');
  });

  it("isolates workspaces and environments: another tenant's event is 404 event_not_found, its cursor a 400", async () => {
    const owner = await seedAccount();
    await call('POST', '/v1/invoices', { key: owner.secret, body: VALID_INVOICE });
    const [event] = (await events(owner.secret)).data;
    const stranger = await seedAccount();
    const sameWorkspaceLive = await createKey(owner.workspace.id, { environment: 'live' });
    expectProblem(await call('GET', `/v1/events/${event!.id}`, { key: stranger.secret }), 404, 'event_not_found');
    expectProblem(
      await call('GET', `/v1/events/${event!.id}`, { key: sameWorkspaceLive.secret }),
      404,
      'event_not_found',
    );
    expectProblem(await call('GET', '/v1/events/evt_doesnotexist', { key: owner.secret }), 404, 'event_not_found');
    expect((await events(stranger.secret)).data).toEqual([]);
    expectProblem(
      await call('GET', `/v1/events?starting_after=${event!.id}`, { key: stranger.secret }),
      400,
      'validation_failed',
    );
  });

  it('needs the invoices:read scope', async () => {
    const { secret } = await seedAccount({ scopes: ['invoices:write'] });
    expectProblem(await call('GET', '/v1/events', { key: secret }), 403, 'missing_scope');
  });
});
