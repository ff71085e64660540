import { describe, expect, it } from 'vitest';
import { db } from '@/lib/db';
import { TEST_PAY_ADDRESSES } from '@/lib/wallets/address';
import { createKey, LIVE_INVOICE, seedAccount, setEvmWallet, setTronWallet, VALID_INVOICE } from '../support/fixtures';
import { call, expectProblem } from '../support/http';

async function create(secret: string, body: unknown = VALID_INVOICE) {
  return call('POST', '/v1/invoices', { key: secret, body });
}

describe('POST /v1/invoices', () => {
  it('creates a test invoice in the key environment with the documented fields', async () => {
    const account = await seedAccount();
    const result = await create(account.secret, {
      ...VALID_INVOICE,
      description: 'Order #1',
      metadata: { customer: 'c_1' },
      order_id: 'order-1',
      expires_in: 900,
    });
    expect(result.status).toBe(201);
    const invoice = result.json;
    expect(invoice).toMatchObject({
      object: 'invoice',
      environment: 'test',
      status: 'pending',
      amount: '10.5',
      currency: 'USDT',
      network: 'tron',
      pay_address: TEST_PAY_ADDRESSES.tron,
      description: 'Order #1',
      metadata: { customer: 'c_1' },
      order_id: 'order-1',
      paid_at: null,
      cancelled_at: null,
      payment: null,
    });
    expect(invoice.id).toMatch(/^inv_[0-9A-Za-z]{24}$/);
    expect(Date.parse(invoice.expires_at) - Date.parse(invoice.created_at)).toBe(900_000);
    expect(invoice.created_at).toMatch(/Z$/);
    // Stored as a JSON object (a jsonb parameter sent as a string would be stored as a JSON string).
    const stored = await db().invoice.findUniqueOrThrow({ where: { id: invoice.id } });
    expect(stored.metadata).toEqual({ customer: 'c_1' });
    expect((await call('GET', `/v1/invoices/${invoice.id}`, { key: account.secret })).json.metadata).toEqual({
      customer: 'c_1',
    });
  });

  it('a test invoice shows the documented test address even when the workspace has a wallet (docs/api.md)', async () => {
    const account = await seedAccount();
    const wallet = await setTronWallet(account.workspace.id);
    const created = await create(account.secret);
    expect(created.json.pay_address).toBe(TEST_PAY_ADDRESSES.tron);
    expect(created.json.pay_address).not.toBe(wallet.address);
    const stored = await db().invoice.findUniqueOrThrow({ where: { id: created.json.id } });
    expect(stored.payAddress).toBe(TEST_PAY_ADDRESSES.tron);
  });

  it('a test invoice stored with a real wallet (before that rule) reads with the test address', async () => {
    const account = await seedAccount();
    const wallet = await setTronWallet(account.workspace.id);
    const created = await create(account.secret);
    await db().invoice.update({ where: { id: created.json.id }, data: { payAddress: wallet.address } });
    expect((await call('GET', `/v1/invoices/${created.json.id}`, { key: account.secret })).json.pay_address).toBe(
      TEST_PAY_ADDRESSES.tron,
    );
    const list = await call('GET', '/v1/invoices', { key: account.secret });
    expect(list.json.data[0].pay_address).toBe(TEST_PAY_ADDRESSES.tron);
  });

  it('a live invoice needs a wallet for its network, and is paid to it', async () => {
    const account = await seedAccount({ environment: 'live' });
    expectProblem(await create(account.secret, LIVE_INVOICE), 422, 'wallet_not_configured');
    expect(await db().invoice.count({ where: { workspaceId: account.workspace.id } })).toBe(0);
    const wallet = await setEvmWallet(account.workspace.id);
    const result = await create(account.secret, LIVE_INVOICE);
    expect(result.status).toBe(201);
    expect(result.json).toMatchObject({ environment: 'live', pay_address: wallet.address });
  });

  it('refuses mode or environment in the body, saying the key decides', async () => {
    const account = await seedAccount();
    for (const field of ['mode', 'environment']) {
      const problem = expectProblem(
        await create(account.secret, { ...VALID_INVOICE, [field]: 'live' }),
        400,
        'validation_failed',
      );
      expect(problem.errors).toEqual([{ path: field, message: expect.stringMatching(/key/) }]);
    }
  });
});

describe('GET /v1/invoices/{id}', () => {
  it('returns the invoice; malformed and unknown ids are 404', async () => {
    const account = await seedAccount();
    const created = (await create(account.secret)).json;
    const found = await call('GET', `/v1/invoices/${created.id}`, { key: account.secret });
    expect(found.status).toBe(200);
    expect(found.json).toEqual(created);
    expectProblem(
      await call('GET', '/v1/invoices/inv_000000000000000000000000', { key: account.secret }),
      404,
      'invoice_not_found',
    );
    expectProblem(await call('GET', '/v1/invoices/nope', { key: account.secret }), 404, 'invoice_not_found');
  });
});

describe('GET /v1/invoices', () => {
  it('lists newest first with cursor pagination', async () => {
    const account = await seedAccount();
    const ids: string[] = [];
    for (let i = 0; i < 7; i++)
      ids.push((await create(account.secret, { ...VALID_INVOICE, order_id: `o-${i}` })).json.id);
    const newestFirst = [...ids].reverse();

    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const query: string = cursor ? `?limit=3&starting_after=${cursor}` : '?limit=3';
      const page = await call('GET', `/v1/invoices${query}`, { key: account.secret });
      expect(page.status).toBe(200);
      expect(page.json.object).toBe('list');
      seen.push(...page.json.data.map((invoice: { id: string }) => invoice.id));
      cursor = page.json.next_cursor;
      expect(page.json.has_more).toBe(cursor !== null);
      pages++;
    } while (cursor);
    expect(pages).toBe(3);
    expect(seen).toEqual(newestFirst);
  });

  it('defaults to 20 and validates limit, cursor and status', async () => {
    const account = await seedAccount();
    for (let i = 0; i < 21; i++) await create(account.secret);
    const page = await call('GET', '/v1/invoices', { key: account.secret });
    expect(page.json.data).toHaveLength(20);
    expect(page.json.has_more).toBe(true);
    for (const query of [
      'limit=0',
      'limit=101',
      'limit=abc',
      'limit=1.5',
      'status=unknown',
      'starting_after=inv_000000000000000000000000',
      'starting_after=x',
      'colour=blue',
    ]) {
      const problem = expectProblem(
        await call('GET', `/v1/invoices?${query}`, { key: account.secret }),
        400,
        'validation_failed',
      );
      expect(problem.errors?.[0]?.path).toBe(query.split('=')[0]);
    }
  });

  it('filters by status, including derived expiry', async () => {
    const account = await seedAccount();
    const pending = (await create(account.secret)).json.id;
    const cancelled = (await create(account.secret)).json.id;
    const paid = (await create(account.secret)).json.id;
    const expired = (await create(account.secret)).json.id;
    await call('POST', `/v1/invoices/${cancelled}/cancel`, { key: account.secret });
    await call('POST', `/v1/test/invoices/${paid}/simulate-payment`, { key: account.secret });
    await db().invoice.update({ where: { id: expired }, data: { expiresAt: new Date(Date.now() - 1000) } });

    const byStatus = async (status: string) =>
      (await call('GET', `/v1/invoices?status=${status}`, { key: account.secret })).json.data.map(
        (i: { id: string }) => i.id,
      );
    expect(await byStatus('pending')).toEqual([pending]);
    expect(await byStatus('cancelled')).toEqual([cancelled]);
    expect(await byStatus('paid')).toEqual([paid]);
    expect(await byStatus('expired')).toEqual([expired]);
  });
});

describe('invoice transitions', () => {
  it('cancel: pending → cancelled, then 409 invoice_not_cancellable', async () => {
    const account = await seedAccount();
    const id = (await create(account.secret)).json.id;
    const cancelled = await call('POST', `/v1/invoices/${id}/cancel`, { key: account.secret });
    expect(cancelled.status).toBe(200);
    expect(cancelled.json.status).toBe('cancelled');
    expect(cancelled.json.cancelled_at).not.toBeNull();
    expectProblem(
      await call('POST', `/v1/invoices/${id}/cancel`, { key: account.secret }),
      409,
      'invoice_not_cancellable',
    );
    expectProblem(
      await call('POST', `/v1/test/invoices/${id}/simulate-payment`, { key: account.secret }),
      409,
      'invoice_not_payable',
    );
  });

  it('simulate-payment: pending → paid with a simulated payment, then 409', async () => {
    const account = await seedAccount();
    const id = (await create(account.secret)).json.id;
    const paid = await call('POST', `/v1/test/invoices/${id}/simulate-payment`, { key: account.secret });
    expect(paid.status).toBe(200);
    expect(paid.json.status).toBe('paid');
    expect(paid.json.payment).toEqual({
      tx_hash: expect.stringMatching(/^0x[0-9a-f]{64}$/),
      amount: '10.5',
      simulated: true,
    });
    expectProblem(
      await call('POST', `/v1/test/invoices/${id}/simulate-payment`, { key: account.secret }),
      409,
      'invoice_not_payable',
    );
    expectProblem(
      await call('POST', `/v1/invoices/${id}/cancel`, { key: account.secret }),
      409,
      'invoice_not_cancellable',
    );
    expect((await call('GET', `/v1/invoices/${id}`, { key: account.secret })).json.status).toBe('paid');
  });

  it('simulate-payment with a live key → 403 test_mode_only', async () => {
    const account = await seedAccount({ environment: 'live' });
    await setEvmWallet(account.workspace.id);
    const id = (await create(account.secret, LIVE_INVOICE)).json.id;
    expectProblem(
      await call('POST', `/v1/test/invoices/${id}/simulate-payment`, { key: account.secret }),
      403,
      'test_mode_only',
    );
    expect((await call('GET', `/v1/invoices/${id}`, { key: account.secret })).json.status).toBe('pending');
  });

  it('an expired invoice reads as expired and can be neither paid nor cancelled', async () => {
    const account = await seedAccount();
    const id = (await create(account.secret)).json.id;
    await db().invoice.update({ where: { id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect((await call('GET', `/v1/invoices/${id}`, { key: account.secret })).json.status).toBe('expired');
    expectProblem(
      await call('POST', `/v1/test/invoices/${id}/simulate-payment`, { key: account.secret }),
      409,
      'invoice_not_payable',
    );
    expectProblem(
      await call('POST', `/v1/invoices/${id}/cancel`, { key: account.secret }),
      409,
      'invoice_not_cancellable',
    );
  });

  it('transitions refuse a body with fields', async () => {
    const account = await seedAccount();
    const id = (await create(account.secret)).json.id;
    expectProblem(
      await call('POST', `/v1/invoices/${id}/cancel`, { key: account.secret, body: { reason: 'x' } }),
      400,
      'validation_failed',
    );
    expect((await call('POST', `/v1/invoices/${id}/cancel`, { key: account.secret, body: {} })).status).toBe(200);
  });

  it('a second key of the same workspace and environment sees the same invoices', async () => {
    const account = await seedAccount();
    const reader = await createKey(account.workspace.id, { scopes: ['invoices:read'] });
    const id = (await create(account.secret)).json.id;
    expect((await call('GET', `/v1/invoices/${id}`, { key: reader.secret })).status).toBe(200);
  });
});
