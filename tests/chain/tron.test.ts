import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getAddress } from 'viem';
import { db } from '@/lib/db';
import { env } from '@/lib/env';
import { tronToBase58, tronToHex } from '@/lib/chain/tron/address';
import { setWallet } from '@/lib/wallets/wallets';
import { listUnmatchedPayments } from '@/lib/chain/unmatched';
import { DEV_ACCOUNTS, deployMockToken } from '../../scripts/chain/local-chain';
import { mineTron } from '../../scripts/chain/tron-local';
import { startTronFacade, type TronFacade } from '../../scripts/chain/tron-facade';
import { seedAccount } from '../support/fixtures';
import { call } from '../support/http';
import {
  chain,
  freshTronAddress,
  mineToFinality,
  ownFacade,
  payTron,
  skipEvmCursorToHead,
  testClient,
  tron,
  tronWatcher,
} from '../support/tron';

// Live USDT (TRC-20) on tron against the suite's local node behind the TRON JSON-RPC façade, with real
// PostgreSQL: the server under test creates invoices (it watches tron through the global façade); the watcher
// runs here one pass at a time, through a façade of this file's own whose every call is inspected: TRON refuses
// `pending`/`safe` and ranges over 5,000 blocks, and the watcher must never have been refused anything.

let facade: TronFacade;
beforeAll(async () => {
  facade = await ownFacade();
});
afterAll(async () => {
  await facade.close();
});

async function liveTronAccount() {
  const account = await seedAccount({ environment: 'live' });
  const address = freshTronAddress();
  await setWallet(account.workspace.id, { network: 'tron', address });
  return { ...account, address };
}

async function createInvoice(secret: string, body: Record<string, unknown> = {}) {
  const result = await call('POST', '/v1/invoices', {
    key: secret,
    body: { amount: '10.5', currency: 'USDT', network: 'tron', ...body },
  });
  expect(result.status).toBe(201);
  return result.json;
}

const read = async (secret: string, id: string) => (await call('GET', `/v1/invoices/${id}`, { key: secret })).json;

async function eventTypes(workspaceId: string) {
  const events = await db().event.findMany({ where: { workspaceId }, orderBy: { seq: 'asc' }, select: { type: true } });
  return events.map((event) => event.type);
}

/** Every call the watcher made was one TRON serves, with no block tag TRON refuses, and none was refused. */
function expectOnlyTronBehaviour() {
  expect(facade.refusals).toEqual([]);
  const methods = new Set(facade.calls.map((c) => c.method));
  for (const method of methods)
    expect([
      'eth_chainId',
      'eth_blockNumber',
      'eth_getBlockByNumber',
      'eth_getLogs',
      'eth_getTransactionReceipt',
    ]).toContain(method);
  const text = JSON.stringify(facade.calls.map((c) => c.params));
  expect(text).not.toMatch(/"(pending|safe)"/);
}

describe('tron settlement through the TRON JSON-RPC façade', () => {
  it('a live tron invoice shows base58 fields and a tron: payment_uri', async () => {
    const account = await liveTronAccount();
    const invoice = await createInvoice(account.secret);
    expect(invoice).toMatchObject({
      environment: 'live',
      network: 'tron',
      currency: 'USDT',
      pay_address: account.address,
    });
    expect(invoice.payment_uri).toBe(`tron:${account.address}?token=${tron.tokens.USDT}&amount=${invoice.pay_amount}`);
    expect(tron.tokens.USDT).toMatch(/^T/);
  });

  it('verify() accepts the configured chain id and refuses another', async () => {
    await tronWatcher(facade).verify();
    // The parsed settings as mainnet's would be (env() is parsed once per process): the local node is refused.
    const settings = env();
    try {
      Object.assign(settings, { CHAIN_ID_TRON: undefined });
      await expect(tronWatcher(facade).verify()).rejects.toThrow(/chain id 0x7a69, CHAIN_ID_TRON is 0x2b6653dc/);
    } finally {
      Object.assign(settings, { CHAIN_ID_TRON: String(tron.chainId) });
    }
  });

  it('exact payment → processing at first inclusion → paid once its block is finalized (head − 19)', async () => {
    const account = await liveTronAccount();
    const invoice = await createInvoice(account.secret);
    const w = tronWatcher(facade);
    await w.tick();
    const txid = await payTron(invoice.payment_uri);
    expect(txid).toMatch(/^[0-9a-f]{64}$/);
    await w.tick();
    const processing = await read(account.secret, invoice.id);
    expect(processing.status).toBe('processing');
    expect(processing.payments).toEqual([
      expect.objectContaining({
        tx_hash: txid,
        amount: invoice.pay_amount,
        status: 'pending',
        confirmations: 1,
        currency: 'USDT',
        network: 'tron',
      }),
    ]);
    const payment = await db().payment.findFirstOrThrow({ where: { txHash: txid } });
    // Addresses are recorded in base58, as the wallet was saved and as tronscan shows them.
    expect(payment).toMatchObject({ toAddress: account.address, fromAddress: tronToBase58(DEV_ACCOUNTS[0].address) });
    // 18 blocks on top: not yet at the façade's finalized block.
    await mineTron(chain.rpcUrl, 18);
    await w.tick();
    expect((await read(account.secret, invoice.id)).status).toBe('processing');
    await mineTron(chain.rpcUrl, 1);
    await w.tick();
    const paid = await read(account.secret, invoice.id);
    expect(paid).toMatchObject({
      status: 'paid',
      amount_received: invoice.pay_amount,
      payment: { tx_hash: txid, amount: invoice.pay_amount, simulated: false },
    });
    expect(paid.payments[0]).toMatchObject({ status: 'confirmed', confirmed_at: expect.any(String) });
    expect(await eventTypes(account.workspace.id)).toEqual(['invoice.created', 'invoice.processing', 'invoice.paid']);
    expectOnlyTronBehaviour();
  });

  it("a node without the finalized tag: final at CONFIRMATIONS_TRON (19, the payment's block counting as the first)", async () => {
    const older = await startTronFacade({ upstreamUrl: chain.rpcUrl, finalizedTag: false });
    try {
      const account = await liveTronAccount();
      const invoice = await createInvoice(account.secret);
      const logged: string[] = [];
      const w = tronWatcher(older, { log: (entry) => logged.push(entry.event) });
      await w.tick();
      const txid = await payTron(invoice.payment_uri);
      await mineTron(chain.rpcUrl, 17); // 18 confirmations
      await w.tick();
      expect((await read(account.secret, invoice.id)).status).toBe('processing');
      expect(logged).toContain('tron_no_finalized_tag');
      await mineTron(chain.rpcUrl, 1); // 19
      await w.tick();
      expect(await read(account.secret, invoice.id)).toMatchObject({ status: 'paid', payment: { tx_hash: txid } });
      // The one refused request is the probe of the tag, answered as an older java-tron does.
      expect(older.refusals).toEqual([
        expect.objectContaining({ method: 'eth_getBlockByNumber', code: -32602, message: 'invalid block number' }),
      ]);
    } finally {
      await older.close();
    }
  });

  it('a wrong amount stays unmatched; a look-alike TRC-20 contract is ignored', async () => {
    const account = await liveTronAccount();
    const invoice = await createInvoice(account.secret);
    const w = tronWatcher(facade);
    await w.tick();
    const wrong = await payTron(invoice.payment_uri, { units: (units) => units + 1n });
    const fake = tronToBase58(await deployMockToken(chain.rpcUrl, 'Tether USD', 'USDT'));
    const lookAlike = await payTron(invoice.payment_uri, { token: fake });
    await w.tick();
    await mineToFinality();
    await w.tick();
    expect((await read(account.secret, invoice.id)).status).toBe('pending');
    expect(await db().payment.findFirstOrThrow({ where: { txHash: wrong } })).toMatchObject({
      invoiceId: null,
      status: 'confirmed',
      toAddress: account.address,
    });
    expect(await db().payment.count({ where: { txHash: lookAlike } })).toBe(0);
    expect(await eventTypes(account.workspace.id)).toEqual(['invoice.created', 'payment.unmatched']);
    // The merchant's unmatched list shows it, with base58 addresses (case-sensitive: compared as stored).
    expect(await listUnmatchedPayments(account.workspace.id)).toEqual([
      expect.objectContaining({ txHash: wrong, to: account.address, from: tronToBase58(DEV_ACCOUNTS[0].address) }),
    ]);
    expectOnlyTronBehaviour();
  });

  it('a reorg above finality reverts the payment; paid again on the new chain, the invoice is paid', async () => {
    const account = await liveTronAccount();
    const invoice = await createInvoice(account.secret);
    const w = tronWatcher(facade);
    await w.tick();
    const snapshot = await testClient.snapshot();
    await payTron(invoice.payment_uri);
    await w.tick();
    expect((await read(account.secret, invoice.id)).status).toBe('processing');
    await testClient.revert({ id: snapshot });
    await testClient.mine({ blocks: 2 });
    await w.tick();
    const reverted = await read(account.secret, invoice.id);
    expect(reverted.status).toBe('pending');
    expect(reverted.payments).toEqual([expect.objectContaining({ status: 'reverted', confirmations: 0 })]);
    expect(await eventTypes(account.workspace.id)).toEqual([
      'invoice.created',
      'invoice.processing',
      'invoice.payment_reverted',
    ]);
    const txid = await payTron(invoice.payment_uri);
    await w.tick();
    await mineToFinality();
    await w.tick();
    expect(await read(account.secret, invoice.id)).toMatchObject({ status: 'paid', payment: { tx_hash: txid } });
    expectOnlyTronBehaviour();
  });

  it('a payment after expires_at → the invoice stays expired with paid_late', async () => {
    const account = await liveTronAccount();
    const invoice = await createInvoice(account.secret);
    await db().invoice.update({ where: { id: invoice.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const w = tronWatcher(facade);
    await payTron(invoice.payment_uri);
    await w.tick();
    expect((await read(account.secret, invoice.id)).status).toBe('expired');
    await mineToFinality();
    await w.tick();
    expect(await read(account.secret, invoice.id)).toMatchObject({
      status: 'expired',
      payment_exception: 'paid_late',
      amount_received: invoice.pay_amount,
    });
    expect(await eventTypes(account.workspace.id)).toEqual(['invoice.created', 'invoice.paid_late']);
  });

  it('a watcher stopped mid-range and restarted neither misses nor doubles a transfer', async () => {
    const account = await liveTronAccount();
    const invoices = [
      await createInvoice(account.secret),
      await createInvoice(account.secret),
      await createInvoice(account.secret),
    ];
    await tronWatcher(facade).tick();
    const txids = [];
    for (const invoice of invoices) txids.push(await payTron(invoice.payment_uri)); // one block each
    let chunks = 0;
    const killed = tronWatcher(facade, {
      maxRange: 1,
      afterChunk: () => {
        if (++chunks === 2) throw new Error('killed');
      },
    });
    await expect(killed.tick()).rejects.toThrow('killed');
    expect(await db().payment.count({ where: { txHash: { in: txids } } })).toBe(2);
    const restarted = tronWatcher(facade);
    await restarted.tick();
    // Replaying blocks already recorded (the cursor moved back by hand) changes nothing either.
    const cursor = await db().chainCursor.findUniqueOrThrow({ where: { network: 'tron' } });
    const earlier = await testClient.request({
      method: 'eth_getBlockByNumber' as never,
      params: [`0x${(cursor.lastBlock - 4n).toString(16)}`, false] as never,
    });
    const block = earlier as unknown as { number: string; hash: string };
    await db().chainCursor.update({
      where: { network: 'tron' },
      data: { lastBlock: BigInt(block.number), lastBlockHash: block.hash },
    });
    await restarted.tick();
    await mineToFinality();
    await restarted.tick();
    expect(await db().payment.count({ where: { txHash: { in: txids } } })).toBe(3);
    for (const invoice of invoices) {
      expect(await read(account.secret, invoice.id)).toMatchObject({
        status: 'paid',
        amount_received: invoice.pay_amount,
        payments: [expect.anything()],
      });
    }
    expectOnlyTronBehaviour();
  });

  it('more than 5,000 blocks behind: the range is split into eth_getLogs of at most 5,000 blocks, nothing missed', async () => {
    const account = await liveTronAccount();
    const first = await createInvoice(account.secret);
    const second = await createInvoice(account.secret);
    const w = tronWatcher(facade);
    await w.tick();
    const before = facade.calls.length;
    const a = await payTron(first.payment_uri);
    await mineTron(chain.rpcUrl, 6_000);
    const b = await payTron(second.payment_uri);
    await w.tick();
    const ranges = facade.calls
      .slice(before)
      .filter((c) => c.method === 'eth_getLogs')
      .map((c) => {
        const filter = c.params[0] as { fromBlock: string; toBlock: string; address: string[] };
        // Filters carry 20-byte hex addresses, never base58.
        for (const address of filter.address) expect(address).toMatch(/^0x[0-9a-f]{40}$/);
        return Number(BigInt(filter.toBlock) - BigInt(filter.fromBlock)) + 1;
      });
    expect(ranges.length).toBeGreaterThanOrEqual(2);
    expect(Math.max(...ranges)).toBeLessThanOrEqual(5000);
    // O(1) requests per range, none per block: the whole pass over 6,000 blocks is a handful of requests.
    expect(facade.calls.length - before).toBeLessThanOrEqual(6 + 3 * ranges.length);
    // The first is 6,000 blocks deep, final in the same pass; the second was just included.
    expect(await read(account.secret, first.id)).toMatchObject({ status: 'paid', payment: { tx_hash: a } });
    expect((await read(account.secret, second.id)).status).toBe('processing');
    await mineToFinality();
    await w.tick();
    expect(await read(account.secret, first.id)).toMatchObject({ status: 'paid', payment: { tx_hash: a } });
    expect(await read(account.secret, second.id)).toMatchObject({ status: 'paid', payment: { tx_hash: b } });
    expectOnlyTronBehaviour();
    await skipEvmCursorToHead();
  });

  it('the watcher filters on the configured contract in hex and converts addresses back to base58', async () => {
    expect(tronToHex(tron.tokens.USDT)).toBe(getAddress(chain.tokens.USDT).toLowerCase());
    const logs = facade.calls.filter((c) => c.method === 'eth_getLogs');
    expect(logs.length).toBeGreaterThan(0);
    for (const c of logs) expect((c.params[0] as { address: string[] }).address).toEqual([tronToHex(tron.tokens.USDT)]);
  });
});
