import { describe, expect, it } from 'vitest';
import { db } from '@/lib/db';
import { setWallet } from '@/lib/wallets/wallets';
import { rpcCallCounter } from '@/lib/chain/evm/client';
import { parseBip21, sendBitcoin } from '../../scripts/chain/bitcoin-node';
import { bitcoin, bitcoinWatcher, freshVpub, mine, payBitcoin, reorg } from '../support/bitcoin';
import { seedAccount } from '../support/fixtures';
import { call } from '../support/http';

// docs/settlement.md "Bitcoin" against the lane's bcoin regtest node (behind its Core-compatible RPC) and real
// PostgreSQL: the server under test creates and serves invoices; the watcher runs here, one pass at a time.

async function liveAccount() {
  const account = await seedAccount({ environment: 'live' });
  await setWallet(account.workspace.id, { network: 'bitcoin', address: freshVpub() });
  return account;
}

async function createInvoice(secret: string, amount = '0.0015') {
  const result = await call('POST', '/v1/invoices', { key: secret, body: { amount, currency: 'BTC', network: 'bitcoin' } });
  expect(result.status).toBe(201);
  return result.json;
}

const read = async (secret: string, id: string) => (await call('GET', `/v1/invoices/${id}`, { key: secret })).json;

async function eventTypes(workspaceId: string) {
  const events = await db().event.findMany({ where: { workspaceId }, orderBy: { seq: 'asc' }, select: { type: true } });
  return events.map((event) => event.type);
}

describe('Bitcoin invoices', () => {
  it('each invoice gets the next never-used address; concurrent creates never share one; BIP-21 URI', async () => {
    const account = await liveAccount();
    const invoices = await Promise.all(Array.from({ length: 12 }, () => createInvoice(account.secret)));
    const addresses = invoices.map((invoice) => invoice.pay_address);
    expect(new Set(addresses).size).toBe(12);
    for (const invoice of invoices) {
      expect(invoice.pay_address).toMatch(/^bcrt1q/);
      expect(invoice.pay_amount).toBe('0.0015');
      expect(invoice.payment_uri).toBe(`bitcoin:${invoice.pay_address}?amount=0.0015`);
    }
    const rows = await db().bitcoinAddress.findMany({ where: { workspaceId: account.workspace.id }, orderBy: { derivationIndex: 'asc' } });
    expect(rows.map((row) => row.derivationIndex)).toEqual(Array.from({ length: 12 }, (_, i) => i));
    // A plain address is refused as a wallet, with the reason.
    await expect(setWallet(account.workspace.id, { network: 'bitcoin', address: addresses[0] })).rejects.toThrow(/single Bitcoin address/);
  });

  it('exact payment: mempool → processing with 0 confirmations → paid at 2', async () => {
    const account = await liveAccount();
    const invoice = await createInvoice(account.secret);
    const w = bitcoinWatcher();
    await w.tick();
    const txid = await payBitcoin(invoice.payment_uri);
    await w.tick();
    const processing = await read(account.secret, invoice.id);
    expect(processing.status).toBe('processing');
    expect(processing.payments).toEqual([expect.objectContaining({ tx_hash: txid, amount: '0.0015', status: 'pending', confirmations: 0, block_number: null })]);
    // The hosted page: payment detected, 0 of 2 confirmations; its BIP-21 link opens a wallet.
    expect(await (await fetch(`${invoice.hosted_url}/status`)).json()).toMatchObject({ status: 'processing', confirmations: 0, confirmations_required: 2, amount_due: null });
    const page = await (await fetch(invoice.hosted_url)).text();
    expect(page).toContain('Payment detected — 0 of 2 confirmations');
    expect(page).toContain(`href="${invoice.payment_uri}"`);
    await mine(1);
    await w.tick();
    expect((await read(account.secret, invoice.id)).payments[0]).toMatchObject({ status: 'pending', confirmations: 1 });
    await mine(1);
    await w.tick();
    const paid = await read(account.secret, invoice.id);
    expect(paid).toMatchObject({ status: 'paid', amount_received: '0.0015', payment_exception: null, payment: { tx_hash: txid } });
    expect(paid.payments[0]).toMatchObject({ status: 'confirmed', confirmations: bitcoin.confirmations, log_index: expect.any(Number) });
    expect(await eventTypes(account.workspace.id)).toEqual(['invoice.created', 'invoice.processing', 'invoice.paid']);
  });

  it('two partial payments: underpaid (still payable) then paid; an overpayment is flagged', async () => {
    const account = await liveAccount();
    const invoice = await createInvoice(account.secret, '0.003');
    const other = await createInvoice(account.secret, '0.001');
    const w = bitcoinWatcher();
    await w.tick();
    await payBitcoin(invoice.payment_uri, '0.001');
    await mine(2);
    await w.tick();
    const underpaid = await read(account.secret, invoice.id);
    expect(underpaid).toMatchObject({ status: 'pending', payment_exception: 'underpaid', amount_received: '0.001' });
    // The hosted page asks for the rest, in its text, its amount and its BIP-21 link.
    expect(await (await fetch(`${invoice.hosted_url}/status`)).json()).toMatchObject({ status: 'pending', amount_received: '0.001', amount_due: '0.002' });
    const page = await (await fetch(invoice.hosted_url)).text();
    expect(page).toContain(`bitcoin:${invoice.pay_address}?amount=0.002`);
    expect(page).toContain('Open in wallet');
    await payBitcoin(invoice.payment_uri, '0.002');
    await w.tick();
    expect((await read(account.secret, invoice.id)).status).toBe('processing');
    await mine(2);
    await w.tick();
    expect(await read(account.secret, invoice.id)).toMatchObject({ status: 'paid', payment_exception: null, amount_received: '0.003' });
    // The other invoice's address was never paid: nothing credited there.
    expect(await read(account.secret, other.id)).toMatchObject({ status: 'pending', amount_received: '0', payments: [] });
    await payBitcoin(other.payment_uri, '0.0012');
    await mine(2);
    await w.tick();
    expect(await read(account.secret, other.id)).toMatchObject({ status: 'paid', payment_exception: 'overpaid', amount_received: '0.0012' });
  });

  it('a reorganised-away payment reverts; a mempool payment that is dropped reverts', async () => {
    const account = await liveAccount();
    const invoice = await createInvoice(account.secret);
    const w = bitcoinWatcher();
    await w.tick();
    await payBitcoin(invoice.payment_uri);
    await mine(1);
    await w.tick();
    expect((await read(account.secret, invoice.id)).payments[0]).toMatchObject({ status: 'pending', confirmations: 1 });
    // The block is invalidated: its transaction goes back to the mempool (Core's behaviour).
    await reorg(1);
    await w.tick();
    const afterReorg = await read(account.secret, invoice.id);
    expect(afterReorg.status).toBe('processing');
    expect(afterReorg.payments[0]).toMatchObject({ status: 'pending', confirmations: 0, block_number: null });
    expect(await eventTypes(account.workspace.id)).toEqual(['invoice.created', 'invoice.processing', 'invoice.payment_reverted', 'invoice.processing']);
    // Invalidating a block empties bcoin's mempool of what was only there: the payment is dropped.
    await mine(1);
    await w.tick();
    const dropped = await createInvoice(account.secret);
    await w.tick();
    await payBitcoin(dropped.payment_uri);
    await w.tick();
    expect((await read(account.secret, dropped.id)).status).toBe('processing');
    await reorg(1);
    await w.tick();
    const reverted = await read(account.secret, dropped.id);
    expect(reverted.status).toBe('pending');
    expect(reverted.payments[0]).toMatchObject({ status: 'reverted' });
  });

  it('a watcher stopped mid-range resumes where it committed: nothing missed, nothing recorded twice', async () => {
    const account = await liveAccount();
    const invoices = await Promise.all([createInvoice(account.secret), createInvoice(account.secret), createInvoice(account.secret)]);
    await bitcoinWatcher().tick();
    for (const invoice of invoices) {
      await payBitcoin(invoice.payment_uri);
      await mine(1);
    }
    await mine(1);
    let chunks = 0;
    const stopping = bitcoinWatcher({
      maxRange: 1,
      afterChunk: () => {
        if (++chunks === 2) throw new Error('killed mid-range');
      },
    });
    await expect(stopping.tick()).rejects.toThrow('killed mid-range');
    await bitcoinWatcher({ maxRange: 1 }).tick();
    await bitcoinWatcher().tick();
    for (const invoice of invoices) {
      const read_ = await read(account.secret, invoice.id);
      expect(read_).toMatchObject({ status: 'paid', amount_received: '0.0015' });
      expect(read_.payments).toHaveLength(1);
    }
    const types = await eventTypes(account.workspace.id);
    expect(types.filter((type) => type === 'invoice.paid')).toHaveLength(3);
    expect(types.filter((type) => type === 'invoice.processing')).toHaveLength(3);
  });

  it('RPC calls per block do not grow with the number of invoices paid in it', async () => {
    const account = await liveAccount();
    const w = bitcoinWatcher();
    await w.tick();
    const callsFor = async (count: number) => {
      const invoices = await Promise.all(Array.from({ length: count }, () => createInvoice(account.secret, '0.0001')));
      await sendBitcoin(bitcoin.rpcUrl, invoices.map((invoice) => parseBip21(invoice.payment_uri)));
      await mine(1);
      const before = rpcCallCounter.get('bitcoin') ?? 0;
      await w.tick();
      const calls = (rpcCallCounter.get('bitcoin') ?? 0) - before;
      for (const invoice of invoices) expect((await read(account.secret, invoice.id)).status).toBe('processing');
      // Settle them, so the next measured pass starts from the same state (no payment due then).
      await mine(2);
      await w.tick();
      for (const invoice of invoices) expect((await read(account.secret, invoice.id)).status).toBe('paid');
      return calls;
    };
    const one = await callsFor(1);
    const forty = await callsFor(40);
    expect(forty).toBe(one);
  });
});
