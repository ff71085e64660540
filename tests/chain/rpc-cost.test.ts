import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { evmClient } from '@/lib/chain/evm/client';
import { setWallet } from '@/lib/wallets/wallets';
import { chain, freshAddress, mineToConfirm, payInOneBlock, watcher } from '../support/chain';
import { seedAccount } from '../support/fixtures';
import { call } from '../support/http';
import { startRpcProxy, type RpcProxy } from '../support/rpc-proxy';

// docs/settlement.md: "the number of RPC calls per block does not grow with the number of invoices or wallets". The
// watcher talks to the suite's hardhat node through a counting pass-through (tests/support/rpc-proxy.ts), one
// pass at a time, so the JSON-RPC methods each pass calls are counted exactly.

let plain: RpcProxy;
let withBlockReceipts: RpcProxy;

beforeAll(async () => {
  plain = await startRpcProxy(chain.rpcUrl, { blockReceipts: false });
  withBlockReceipts = await startRpcProxy(chain.rpcUrl, { blockReceipts: true });
});

afterAll(async () => {
  await plain?.close();
  await withBlockReceipts?.close();
});

/** `wallets` live workspaces with `perWallet` invoices each, all paid in one block; the calls of each pass. */
async function settleInOneBlock(proxy: RpcProxy, wallets: number, perWallet: number, body: Record<string, string>) {
  const invoices: Array<{ id: string; secret: string; payment_uri: string }> = [];
  for (let w = 0; w < wallets; w++) {
    const account = await seedAccount({ environment: 'live' });
    await setWallet(account.workspace.id, { network: 'ethereum', address: freshAddress() });
    for (let i = 0; i < perWallet; i++) {
      const created = await call('POST', '/v1/invoices', {
        key: account.secret,
        body: { network: 'ethereum', ...body },
      });
      expect(created.status).toBe(201);
      invoices.push({ ...created.json, secret: account.secret });
    }
  }
  const w = watcher({ client: evmClient('ethereum', [proxy.url]) });
  await w.tick(); // cursor at the head (and anything left over settled) before counting
  await payInOneBlock(invoices.map((invoice) => invoice.payment_uri));
  proxy.calls.clear();
  await w.tick();
  const detect = Object.fromEntries(proxy.calls);
  await mineToConfirm();
  proxy.calls.clear();
  await w.tick();
  const confirm = Object.fromEntries(proxy.calls);
  for (const invoice of invoices)
    expect((await call('GET', `/v1/invoices/${invoice.id}`, { key: invoice.secret })).json.status).toBe('paid');
  return { detect, confirm };
}

describe('RPC calls per block', () => {
  it('token payments: the same calls for 1 invoice of 1 wallet as for 12 invoices over 3 wallets, none per payment', async () => {
    const usdt = { amount: '3', currency: 'USDT' };
    const one = await settleInOneBlock(plain, 1, 1, usdt);
    const many = await settleInOneBlock(plain, 3, 4, usdt);
    expect(many).toEqual(one);
    // First inclusion (1 new block): head, cursor block, the range's logs, the block.
    expect(one.detect).toEqual({ eth_blockNumber: 1, eth_getBlockByNumber: 2, eth_getLogs: 1 });
    // Confirmation (2 new blocks): the same, plus one getLogs re-reading the due block — no receipt per payment.
    expect(one.confirm).toEqual({ eth_blockNumber: 1, eth_getBlockByNumber: 3, eth_getLogs: 2 });
  });

  it('native ETH: one eth_getBlockReceipts per block where the node offers it; per-transaction receipts where it does not', async () => {
    const eth = { amount: '0.01', currency: 'ETH' };
    const perBlock = await settleInOneBlock(withBlockReceipts, 1, 3, eth);
    expect(perBlock.confirm).toMatchObject({ eth_getBlockReceipts: 1 });
    expect(perBlock.confirm.eth_getTransactionReceipt).toBeUndefined();
    // Hardhat refuses eth_getBlockReceipts: the watcher falls back to each transaction's receipt.
    const fallback = await settleInOneBlock(plain, 1, 3, eth);
    expect(fallback.confirm).toMatchObject({ eth_getBlockReceipts: 1, eth_getTransactionReceipt: 3 });
  });
});
