import { describe, expect, it } from 'vitest';
import { db } from '@/lib/db';
import { setWallet } from '@/lib/wallets/wallets';
import { attachPayment, listUnmatchedPayments } from '@/lib/chain/unmatched';
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
  const result = await call('POST', '/v1/invoices', {
    key: secret,
    body: { amount, currency: 'BTC', network: 'bitcoin' },
  });
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
    const rows = await db().bitcoinAddress.findMany({
      where: { workspaceId: account.workspace.id },
      orderBy: { derivationIndex: 'asc' },
    });
    expect(rows.map((row) => row.derivationIndex)).toEqual(Array.from({ length: 12 }, (_, i) => i));
    // A plain address is refused as a wallet, with the reason.
    await expect(setWallet(account.workspace.id, { network: 'bitcoin', address: addresses[0] })).rejects.toThrow(
      /single Bitcoin address/,
    );
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
    expect(processing.payments).toEqual([
      expect.objectContaining({
        tx_hash: txid,
        amount: '0.0015',
        status: 'pending',
        confirmations: 0,
        block_number: null,
      }),
    ]);
    // The hosted page: payment detected, 0 of 2 confirmations; its BIP-21 link opens a wallet.
    expect(await (await fetch(`${invoice.hosted_url}/status`)).json()).toMatchObject({
      status: 'processing',
      confirmations: 0,
      confirmations_required: 2,
      amount_due: null,
    });
    const page = await (await fetch(invoice.hosted_url)).text();
    expect(page).toContain('Payment detected — 0 of 2 confirmations');
    expect(page).toContain(`href="${invoice.payment_uri}"`);
    await mine(1);
    await w.tick();
    expect((await read(account.secret, invoice.id)).payments[0]).toMatchObject({ status: 'pending', confirmations: 1 });
    await mine(1);
    await w.tick();
    const paid = await read(account.secret, invoice.id);
    expect(paid).toMatchObject({
      status: 'paid',
      amount_received: '0.0015',
      payment_exception: null,
      payment: { tx_hash: txid },
    });
    expect(paid.payments[0]).toMatchObject({
      status: 'confirmed',
      confirmations: bitcoin.confirmations,
      log_index: expect.any(Number),
    });
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
    expect(await (await fetch(`${invoice.hosted_url}/status`)).json()).toMatchObject({
      status: 'pending',
      amount_received: '0.001',
      amount_due: '0.002',
    });
    const page = await (await fetch(invoice.hosted_url)).text();
    expect(page).toContain(`bitcoin:${invoice.pay_address}?amount=0.002`);
    expect(page).toContain('Open in wallet');
    await payBitcoin(invoice.payment_uri, '0.002');
    await w.tick();
    expect((await read(account.secret, invoice.id)).status).toBe('processing');
    await mine(2);
    await w.tick();
    expect(await read(account.secret, invoice.id)).toMatchObject({
      status: 'paid',
      payment_exception: null,
      amount_received: '0.003',
    });
    // The other invoice's address was never paid: nothing credited there.
    expect(await read(account.secret, other.id)).toMatchObject({
      status: 'pending',
      amount_received: '0',
      payments: [],
    });
    await payBitcoin(other.payment_uri, '0.0012');
    await mine(2);
    await w.tick();
    expect(await read(account.secret, other.id)).toMatchObject({
      status: 'paid',
      payment_exception: 'overpaid',
      amount_received: '0.0012',
    });
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
    expect(await eventTypes(account.workspace.id)).toEqual([
      'invoice.created',
      'invoice.processing',
      'invoice.payment_reverted',
      'invoice.processing',
    ]);
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

  it('a partial payment confirming while another is in flight: the second one settles the invoice, never late', async () => {
    const account = await liveAccount();
    const invoice = await createInvoice(account.secret, '0.003');
    const w = bitcoinWatcher();
    await w.tick();
    await payBitcoin(invoice.payment_uri, '0.001');
    await mine(1);
    await payBitcoin(invoice.payment_uri, '0.002');
    await mine(1);
    // The first has its 2 confirmations, the second 1: the first is credited alone (short → payable again).
    await w.tick();
    const partly = await read(account.secret, invoice.id);
    expect(partly).toMatchObject({ status: 'pending', payment_exception: 'underpaid', amount_received: '0.001' });
    // Recorded in one pass, so listed in no particular order between them.
    expect(
      partly.payments
        .map((payment: { status: string; amount: string }) => `${payment.status} ${payment.amount}`)
        .sort(),
    ).toEqual(['confirmed 0.001', 'pending 0.002']);
    // The payer's page shows the second payment detected, and nothing more due (it covers the rest).
    expect(await (await fetch(`${invoice.hosted_url}/status`)).json()).toMatchObject({
      status: 'processing',
      confirmations: 1,
      confirmations_required: 2,
      amount_received: '0.001',
      amount_due: null,
    });
    await mine(1);
    await w.tick();
    expect(await read(account.secret, invoice.id)).toMatchObject({
      status: 'paid',
      payment_exception: null,
      amount_received: '0.003',
    });
    expect(await eventTypes(account.workspace.id)).toEqual(['invoice.created', 'invoice.processing', 'invoice.paid']);
  });

  it('a payment confirming onto an invoice cancelled meanwhile is unlinked and listed as unmatched, not lost', async () => {
    const account = await liveAccount();
    const invoice = await createInvoice(account.secret, '0.003');
    const w = bitcoinWatcher();
    await w.tick();
    await payBitcoin(invoice.payment_uri, '0.001');
    await mine(1);
    const second = await payBitcoin(invoice.payment_uri, '0.002');
    await mine(1);
    await w.tick();
    // Underpaid and payable again, so the merchant may cancel it while the second payment still confirms.
    expect((await call('POST', `/v1/invoices/${invoice.id}/cancel`, { key: account.secret })).status).toBe(200);
    await mine(1);
    await w.tick();
    const cancelled = await read(account.secret, invoice.id);
    expect(cancelled).toMatchObject({ status: 'cancelled', amount_received: '0.001' });
    expect(cancelled.payments).toHaveLength(1);
    expect(
      (await listUnmatchedPayments(account.workspace.id)).map((payment) => `${payment.txHash} ${payment.amount}`),
    ).toEqual([`${second} 0.002`]);
    expect(await eventTypes(account.workspace.id)).toEqual([
      'invoice.created',
      'invoice.processing',
      'invoice.cancelled',
      'payment.unmatched',
    ]);
  });

  it('a reverted payment leaves the invoice processing while another of its payments is still in flight', async () => {
    const account = await liveAccount();
    const invoice = await createInvoice(account.secret, '0.003');
    const w = bitcoinWatcher();
    await w.tick();
    await payBitcoin(invoice.payment_uri);
    await w.tick();
    await mine(1);
    await w.tick();
    await payBitcoin(invoice.payment_uri, '0.0005');
    await w.tick();
    expect((await read(account.secret, invoice.id)).payments).toHaveLength(2);
    // The block goes: the first payment is reverted, then recorded again from the mempool (the same row); the
    // second, only in the mempool, is dropped. At no point is the invoice without a payment in flight.
    await reorg(1);
    await w.tick();
    const afterReorg = await read(account.secret, invoice.id);
    expect(afterReorg.status).toBe('processing');
    expect(
      afterReorg.payments
        .map((payment: { status: string; amount: string }) => `${payment.status} ${payment.amount}`)
        .sort(),
    ).toEqual(['pending 0.003', 'reverted 0.0005']);
    expect(await eventTypes(account.workspace.id)).toEqual([
      'invoice.created',
      'invoice.processing',
      'invoice.payment_reverted',
      'invoice.payment_reverted',
    ]);
    await mine(2);
    await w.tick();
    expect(await read(account.secret, invoice.id)).toMatchObject({
      status: 'paid',
      payment_exception: null,
      amount_received: '0.003',
    });
  });

  it('payments to the address of a paid or cancelled invoice are unmatched, listed for the merchant; late ones are paid_late', async () => {
    const account = await liveAccount();
    const paid = await createInvoice(account.secret);
    const cancelled = await createInvoice(account.secret);
    const late = await createInvoice(account.secret);
    const open = await createInvoice(account.secret, '0.0009');
    expect((await call('POST', `/v1/invoices/${cancelled.id}/cancel`, { key: account.secret })).status).toBe(200);
    const w = bitcoinWatcher();
    await w.tick();
    await payBitcoin(paid.payment_uri);
    await mine(2);
    await w.tick();
    expect((await read(account.secret, paid.id)).status).toBe('paid');
    // Expired a moment ago, inside the monitoring window: as on the EVM networks, a payment then is paid_late.
    await db().invoice.update({ where: { id: late.id }, data: { expiresAt: new Date(Date.now() - 60_000) } });
    const again = await payBitcoin(paid.payment_uri, '0.0004');
    const toCancelled = await payBitcoin(cancelled.payment_uri, '0.0009');
    await payBitcoin(late.payment_uri);
    await mine(2);
    await w.tick();
    expect(await read(account.secret, paid.id)).toMatchObject({ status: 'paid', amount_received: '0.0015' });
    expect(await read(account.secret, cancelled.id)).toMatchObject({
      status: 'cancelled',
      amount_received: '0',
      payments: [],
    });
    expect(await read(account.secret, late.id)).toMatchObject({
      status: 'expired',
      payment_exception: 'paid_late',
      amount_received: '0.0015',
    });
    const unmatched = await listUnmatchedPayments(account.workspace.id);
    expect(unmatched.map((payment) => `${payment.txHash} ${payment.amount} ${payment.to}`).sort()).toEqual(
      [`${again} 0.0004 ${paid.pay_address}`, `${toCancelled} 0.0009 ${cancelled.pay_address}`].sort(),
    );
    const types = await eventTypes(account.workspace.id);
    expect(types.filter((type) => type === 'payment.unmatched')).toHaveLength(2);
    expect(types.filter((type) => type === 'invoice.paid_late')).toHaveLength(1);
    // Nobody else sees them; the merchant can attach one to an open Bitcoin invoice, once.
    const stranger = await liveAccount();
    expect(await listUnmatchedPayments(stranger.workspace.id)).toEqual([]);
    const attached = unmatched.find((payment) => payment.txHash === toCancelled)!;
    expect(await attachPayment(account.workspace.id, attached.id, open.id)).toMatchObject({
      status: 'paid',
      paymentException: null,
    });
    await expect(attachPayment(account.workspace.id, attached.id, open.id)).rejects.toThrow(/No unmatched payment/);
  });

  it('a watcher stopped mid-range resumes where it committed: nothing missed, nothing recorded twice', async () => {
    const account = await liveAccount();
    const invoices = await Promise.all([
      createInvoice(account.secret),
      createInvoice(account.secret),
      createInvoice(account.secret),
    ]);
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
      await sendBitcoin(
        bitcoin.rpcUrl,
        invoices.map((invoice) => parseBip21(invoice.payment_uri)),
      );
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
