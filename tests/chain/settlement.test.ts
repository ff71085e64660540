import { describe, expect, it } from 'vitest';
import { db } from '@/lib/db';
import { createWalletClient, encodeFunctionData, getAddress, http } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { parseEvmPaymentUri } from '@/lib/chain/payment-uri';
import { DEV_ACCOUNTS, deployMockToken, ERC20_TRANSFER_ABI, sendPayment } from '../../scripts/chain/local-chain';
import {
  chain,
  freshAddress,
  mineToConfirm,
  pay,
  payInOneBlock,
  publicClient,
  testClient,
  watcher,
} from '../support/chain';
import { seedAccount } from '../support/fixtures';
import { call } from '../support/http';
import { setWallet } from '@/lib/wallets/wallets';

// docs/settlement.md against the suite's local chain (a real hardhat node) and real PostgreSQL: the server under test
// creates and serves invoices; the watcher runs here, in the test process, one pass at a time (tick), so
// nothing depends on timing. Each test pays a wallet address of its own.

async function liveAccount() {
  const account = await seedAccount({ environment: 'live' });
  const address = freshAddress();
  await setWallet(account.workspace.id, { network: 'ethereum', address });
  return { ...account, address };
}

async function createInvoice(secret: string, body: Record<string, unknown> = {}) {
  const result = await call('POST', '/v1/invoices', {
    key: secret,
    body: { amount: '10.5', currency: 'USDT', network: 'ethereum', ...body },
  });
  expect(result.status).toBe(201);
  return result.json;
}

/** The workspace's event types, oldest first (each written in the transaction of its change). */
async function eventTypes(workspaceId: string) {
  const events = await db().event.findMany({ where: { workspaceId }, orderBy: { seq: 'asc' }, select: { type: true } });
  return events.map((event) => event.type);
}

const read = async (secret: string, id: string) => (await call('GET', `/v1/invoices/${id}`, { key: secret })).json;

describe('settlement on the local chain', () => {
  it('exact payment → processing at first inclusion → paid at N confirmations, receipt re-read', async () => {
    const account = await liveAccount();
    const invoice = await createInvoice(account.secret);
    const w = watcher();
    await w.tick();
    const hash = await pay(invoice.payment_uri);
    await w.tick();
    const processing = await read(account.secret, invoice.id);
    expect(processing.status).toBe('processing');
    expect(processing.payments).toEqual([
      expect.objectContaining({
        tx_hash: hash,
        amount: invoice.pay_amount,
        status: 'pending',
        confirmations: 1,
        currency: 'USDT',
        network: 'ethereum',
      }),
    ]);
    await mineToConfirm();
    await w.tick();
    const paid = await read(account.secret, invoice.id);
    expect(paid).toMatchObject({
      status: 'paid',
      amount_received: invoice.pay_amount,
      payment_exception: null,
      payment: { tx_hash: hash, amount: invoice.pay_amount, simulated: false },
    });
    expect(paid.payments[0]).toMatchObject({
      status: 'confirmed',
      confirmations: chain.confirmations,
      confirmed_at: expect.any(String),
    });
    expect(paid.paid_at).not.toBeNull();
    expect(await eventTypes(account.workspace.id)).toEqual(['invoice.created', 'invoice.processing', 'invoice.paid']);
    const paidEvent = await db().event.findFirstOrThrow({
      where: { workspaceId: account.workspace.id, type: 'invoice.paid' },
    });
    const event = (await call('GET', `/v1/events/${paidEvent.id}`, { key: account.secret })).json;
    expect(event.data.object).toMatchObject({
      id: invoice.id,
      status: 'paid',
      amount_received: invoice.pay_amount,
      payments: [expect.objectContaining({ tx_hash: hash, status: 'confirmed' })],
    });
  });

  it('a wrong amount matches nothing: an unmatched payment, the invoice stays pending', async () => {
    const account = await liveAccount();
    const invoice = await createInvoice(account.secret);
    const w = watcher();
    const hash = await pay(invoice.payment_uri, { units: (units) => units + 1n });
    await w.tick();
    await mineToConfirm();
    await w.tick();
    expect((await read(account.secret, invoice.id)).status).toBe('pending');
    const payment = await db().payment.findFirstOrThrow({ where: { txHash: hash } });
    expect(payment).toMatchObject({ invoiceId: null, status: 'confirmed', toAddress: account.address.toLowerCase() });
    expect(await eventTypes(account.workspace.id)).toEqual(['invoice.created', 'payment.unmatched']);
    const unmatched = await db().event.findFirstOrThrow({
      where: { workspaceId: account.workspace.id, type: 'payment.unmatched' },
    });
    expect(unmatched.environment).toBe('live');
    expect(unmatched.snapshot).toMatchObject({
      object: 'payment',
      id: payment.id,
      tx_hash: hash,
      status: 'confirmed',
      invoice: null,
    });
  });

  it('a look-alike token emitting Transfer of the exact amount is ignored', async () => {
    const account = await liveAccount();
    const invoice = await createInvoice(account.secret);
    const fake = await deployMockToken(chain.rpcUrl, 'Tether USD', 'USDT');
    const w = watcher();
    const hash = await pay(invoice.payment_uri, { token: fake });
    await w.tick();
    await mineToConfirm();
    await w.tick();
    expect(await db().payment.count({ where: { txHash: hash } })).toBe(0);
    expect((await read(account.secret, invoice.id)).status).toBe('pending');
  });

  it('two invoices of one amount get distinct pay_amounts, each paid by its own transfer', async () => {
    const account = await liveAccount();
    const first = await createInvoice(account.secret);
    const second = await createInvoice(account.secret);
    expect(first.pay_amount).not.toBe(second.pay_amount);
    const w = watcher();
    const secondHash = await pay(second.payment_uri);
    const firstHash = await pay(first.payment_uri);
    await w.tick();
    await mineToConfirm();
    await w.tick();
    expect(await read(account.secret, first.id)).toMatchObject({ status: 'paid', payment: { tx_hash: firstHash } });
    expect(await read(account.secret, second.id)).toMatchObject({ status: 'paid', payment: { tx_hash: secondHash } });
  });

  it('one block paying many invoices: each credited by its own transfer; a second transfer of one amount stays unmatched', async () => {
    const account = await liveAccount();
    const invoices = [];
    for (let i = 0; i < 5; i++) invoices.push(await createInvoice(account.secret));
    const w = watcher();
    await w.tick();
    // The first invoice's exact amount twice in the block, then one transfer per other invoice.
    const hashes = await payInOneBlock([
      invoices[0].payment_uri,
      invoices[0].payment_uri,
      ...invoices.slice(1).map((invoice) => invoice.payment_uri),
    ]);
    await w.tick();
    for (const invoice of invoices) expect((await read(account.secret, invoice.id)).status).toBe('processing');
    await mineToConfirm();
    await w.tick();
    expect(await read(account.secret, invoices[0].id)).toMatchObject({
      status: 'paid',
      payment: { tx_hash: hashes[0] },
      payments: [expect.objectContaining({ tx_hash: hashes[0] })],
    });
    for (const [index, invoice] of invoices.slice(1).entries()) {
      expect(await read(account.secret, invoice.id)).toMatchObject({
        status: 'paid',
        amount_received: invoice.pay_amount,
        payment: { tx_hash: hashes[index + 2] },
      });
    }
    expect(await db().payment.findFirstOrThrow({ where: { txHash: hashes[1] } })).toMatchObject({
      invoiceId: null,
      status: 'confirmed',
    });
    const types = await eventTypes(account.workspace.id);
    expect(types.filter((type) => type === 'invoice.processing')).toHaveLength(5);
    expect(types.filter((type) => type === 'invoice.paid')).toHaveLength(5);
    expect(types.filter((type) => type === 'payment.unmatched')).toHaveLength(1);
  });

  it('a zero-value transfer to a wallet (address poisoning) is not recorded', async () => {
    const account = await liveAccount();
    const invoice = await createInvoice(account.secret);
    const w = watcher();
    const hash = await pay(invoice.payment_uri, { units: () => 0n });
    await w.tick();
    await mineToConfirm();
    await w.tick();
    expect(await db().payment.count({ where: { txHash: hash } })).toBe(0);
    expect(await eventTypes(account.workspace.id)).toEqual(['invoice.created']);
  });

  it('a payment after expires_at, inside the monitoring window → stays expired with paid_late', async () => {
    const account = await liveAccount();
    const invoice = await createInvoice(account.secret);
    await db().invoice.update({ where: { id: invoice.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const w = watcher();
    await pay(invoice.payment_uri);
    await w.tick();
    expect((await read(account.secret, invoice.id)).status).toBe('expired');
    await mineToConfirm();
    await w.tick();
    expect(await read(account.secret, invoice.id)).toMatchObject({
      status: 'expired',
      payment_exception: 'paid_late',
      amount_received: invoice.pay_amount,
      payments: [expect.objectContaining({ status: 'confirmed' })],
    });
    expect(await eventTypes(account.workspace.id)).toEqual(['invoice.created', 'invoice.paid_late']);
  });

  it('native ETH: a transaction whose `to` is the wallet with the exact value pays the invoice', async () => {
    const account = await liveAccount();
    const invoice = await createInvoice(account.secret, { amount: '0.01', currency: 'ETH' });
    const w = watcher();
    const hash = await pay(invoice.payment_uri);
    await w.tick();
    await mineToConfirm();
    await w.tick();
    const paid = await read(account.secret, invoice.id);
    expect(paid).toMatchObject({ status: 'paid', amount_received: invoice.pay_amount, payment: { tx_hash: hash } });
    expect(paid.payments[0]).toMatchObject({ log_index: null, currency: 'ETH' });
  });

  it('a reorg (evm_snapshot / evm_revert) → the payment is reverted and the invoice back to pending', async () => {
    const account = await liveAccount();
    const invoice = await createInvoice(account.secret);
    const w = watcher();
    await w.tick();
    const snapshot = await testClient.snapshot();
    await pay(invoice.payment_uri);
    await w.tick();
    expect((await read(account.secret, invoice.id)).status).toBe('processing');
    await testClient.revert({ id: snapshot });
    await testClient.mine({ blocks: 2 }); // a different chain of the same height and more
    await w.tick();
    const reverted = await read(account.secret, invoice.id);
    expect(reverted.status).toBe('pending');
    expect(reverted.payments).toEqual([expect.objectContaining({ status: 'reverted', confirmations: 0 })]);
    expect(await eventTypes(account.workspace.id)).toEqual([
      'invoice.created',
      'invoice.processing',
      'invoice.payment_reverted',
    ]);
    // Paid again on the new chain: the same invoice is paid by the new transfer.
    const hash = await pay(invoice.payment_uri);
    await w.tick();
    await mineToConfirm();
    await w.tick();
    expect(await read(account.secret, invoice.id)).toMatchObject({
      status: 'paid',
      amount_received: invoice.pay_amount,
      payment: { tx_hash: hash },
    });
  });

  it('a reorg that re-includes the payment at another log index: the payment follows it, nothing is recorded twice', async () => {
    const account = await liveAccount();
    const invoice = await createInvoice(account.secret);
    const parsed = parseEvmPaymentUri(invoice.payment_uri);
    const token = getAddress(parsed.token!);
    // Account 1 gets tokens of its own (before the snapshot), to send a transfer ahead of the payment later.
    await publicClient.waitForTransactionReceipt({
      hash: await sendPayment(chain.rpcUrl, { token, to: getAddress(DEV_ACCOUNTS[1].address), units: 5_000_000n }),
      pollingInterval: 50,
    });
    const w = watcher();
    await w.tick();

    // The payment, signed once: the same transaction (same hash) is sent again after the reorg.
    const payer = createWalletClient({
      account: privateKeyToAccount(DEV_ACCOUNTS[0].privateKey),
      transport: http(chain.rpcUrl),
    });
    const request = await payer.prepareTransactionRequest({
      to: token,
      data: encodeFunctionData({
        abi: ERC20_TRANSFER_ABI,
        functionName: 'transfer',
        args: [getAddress(parsed.to), parsed.units],
      }),
      gas: 100_000n,
      chain: {
        id: chain.chainId,
        name: 'local',
        nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
        rpcUrls: { default: { http: [chain.rpcUrl] } },
      },
    });
    const raw = await payer.signTransaction(request);
    const snapshot = await testClient.snapshot();
    const hash = await publicClient.sendRawTransaction({ serializedTransaction: raw });
    await publicClient.waitForTransactionReceipt({ hash, pollingInterval: 50 });
    await w.tick();
    const before = await db().payment.findFirstOrThrow({ where: { txHash: hash } });
    expect(before.logIndex).toBe(0);

    // The reorg: the block is dropped; the new chain holds another transfer first, then the same payment.
    await testClient.revert({ id: snapshot });
    await testClient.setAutomine(false);
    try {
      const other = createWalletClient({
        account: privateKeyToAccount(DEV_ACCOUNTS[1].privateKey),
        transport: http(chain.rpcUrl),
      });
      await other.writeContract({
        address: token,
        abi: ERC20_TRANSFER_ABI,
        functionName: 'transfer',
        args: [getAddress(freshAddress()), 1_000_000n],
        gas: 100_000n,
        maxPriorityFeePerGas: 10n ** 10n,
        chain: null,
      });
      await publicClient.sendRawTransaction({ serializedTransaction: raw });
      await testClient.mine({ blocks: 2 });
    } finally {
      await testClient.setAutomine(true);
    }
    const moved = await publicClient.getTransactionReceipt({ hash });
    expect(moved.logs[0]!.logIndex).toBe(1); // the premise: the payment's Transfer now sits at index 1

    await w.tick();
    await mineToConfirm();
    await w.tick();
    const payments = await db().payment.findMany({ where: { txHash: hash } });
    expect(payments).toEqual([
      expect.objectContaining({ logIndex: 1, blockHash: moved.blockHash, status: 'confirmed', invoiceId: invoice.id }),
    ]);
    expect(await read(account.secret, invoice.id)).toMatchObject({ status: 'paid', payment: { tx_hash: hash } });
    // The moved transfer is neither recorded again (as unmatched) nor reverted.
    expect(await eventTypes(account.workspace.id)).toEqual(['invoice.created', 'invoice.processing', 'invoice.paid']);
  });

  it('a watcher killed mid-range and restarted credits each transfer exactly once', async () => {
    const account = await liveAccount();
    const invoices = [
      await createInvoice(account.secret),
      await createInvoice(account.secret),
      await createInvoice(account.secret),
    ];
    await watcher().tick();
    const hashes = [];
    for (const invoice of invoices) hashes.push(await pay(invoice.payment_uri)); // one block each
    let chunks = 0;
    const killed = watcher({
      maxRange: 1,
      afterChunk: () => {
        if (++chunks === 2) throw new Error('killed');
      },
    });
    await expect(killed.tick()).rejects.toThrow('killed');
    expect(await db().payment.count({ where: { txHash: { in: hashes } } })).toBe(2);
    const restarted = watcher();
    await restarted.tick();
    await restarted.tick();
    // Replaying blocks already recorded (a cursor moved back by hand) changes nothing either.
    const cursor = await db().chainCursor.findUniqueOrThrow({ where: { network: 'ethereum' } });
    const earlier = await publicClient.getBlock({ blockNumber: cursor.lastBlock - 4n });
    await db().chainCursor.update({
      where: { network: 'ethereum' },
      data: { lastBlock: earlier.number, lastBlockHash: earlier.hash },
    });
    await restarted.tick();
    await mineToConfirm();
    await restarted.tick();
    expect(await db().payment.count({ where: { txHash: { in: hashes } } })).toBe(3);
    for (const invoice of invoices) {
      expect(await read(account.secret, invoice.id)).toMatchObject({
        status: 'paid',
        amount_received: invoice.pay_amount,
        payments: [expect.anything()],
      });
    }
  });
});
