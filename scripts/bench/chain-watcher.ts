/**
 * Benchmark scenario (h), the chain watcher (docs/settlement.md): 10,000 open live invoices over 1,000 wallets, and a
 * block range holding 1,000 transfers that match 1,000 of them. Measures the seconds the watcher takes to
 * settle them all (first inclusion → processing, then, at N confirmations, receipts re-read → paid) and the
 * JSON-RPC requests it makes — to show they depend on blocks, not on invoices or wallets. Then the Bitcoin row
 * (chain-watcher-bitcoin.ts): 1,000 outputs of one block paying 1,000 of 10,000 open BTC invoices.
 *
 *   npx tsx scripts/bench/chain-watcher.ts   (own embedded PostgreSQL and local chain; BENCH_H_TRANSFERS, BENCH_H_WALLETS,
 *                                            BENCH_H_INVOICES_PER_WALLET, BENCH_H_PER_BLOCK to change the sizes)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createPublicClient, createTestClient, createWalletClient, getAddress, http, type Address } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { ensureEmbeddedDatabase, freePort } from '../db/embedded';
import { migrate } from '../db/migrate';
import { chainSettings, DEV_ACCOUNTS, ERC20_TRANSFER_ABI, startLocalChain } from '../chain/local-chain';
import { startBitcoinNode } from '../chain/bitcoin-node';
import { bitcoinRow } from './chain-watcher-bitcoin';

const TRANSFERS = Number(process.env.BENCH_H_TRANSFERS ?? 1000);
const WALLETS = Number(process.env.BENCH_H_WALLETS ?? 1000);
const INVOICES_PER_WALLET = Number(process.env.BENCH_H_INVOICES_PER_WALLET ?? 10);
const PER_BLOCK = Number(process.env.BENCH_H_PER_BLOCK ?? 100);
const CONFIRMATIONS = 3;
const BITCOIN_INVOICES = Number(process.env.BENCH_H_BITCOIN_INVOICES ?? 10_000);
const BITCOIN_PAYMENTS = Number(process.env.BENCH_H_BITCOIN_PAYMENTS ?? 1000);
const BITCOIN_CONFIRMATIONS = 2;

async function main() {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-h-'));
  const database = await ensureEmbeddedDatabase({ dataDir: path.join(dir, 'pg'), port: 0, database: 'bench_h', verbose: false });
  const chain = await startLocalChain({ port: await freePort() });
  const bitcoin = await startBitcoinNode();
  try {
    await migrate(database.url, { quiet: true });
    Object.assign(process.env, { DATABASE_URL: database.url, ...chainSettings(chain, 'ethereum'), CONFIRMATIONS_ETHEREUM: String(CONFIRMATIONS) });
    Object.assign(process.env, { RPC_URL_BITCOIN: bitcoin.rpcUrl, BITCOIN_CHAIN: 'regtest', CONFIRMATIONS_BITCOIN: String(BITCOIN_CONFIRMATIONS) });
    // Imported after the environment is set: lib/env reads it once.
    const { durablePool, disconnectDb } = await import('../../lib/db');
    const { EvmWatcher } = await import('../../lib/chain/evm/evm-watcher');
    const { rpcCallCounter } = await import('../../lib/chain/evm/client');
    const pool = durablePool();

    // 1,000 workspaces with one ethereum wallet each; 10 open live USDT invoices per wallet, each with its
    // reservation (amount 10 + k, suffix i), as the API would have created them.
    const wallets = Array.from({ length: WALLETS }, (_, i) => getAddress(`0x${(0x100000 + i).toString(16).padStart(40, 'a')}`));
    await pool.query(
      `INSERT INTO workspaces (id, name) SELECT 'ws_bench_' || i, 'bench ' || i FROM generate_series(0, $1::int - 1) i`,
      [WALLETS],
    );
    await pool.query(
      `INSERT INTO wallets (workspace_id, network, address) SELECT 'ws_bench_' || i, 'ethereum', a FROM unnest($1::text[]) WITH ORDINALITY AS t(a, n), LATERAL (SELECT n - 1 AS i) x`,
      [wallets],
    );
    const now = new Date();
    await pool.query(
      `WITH inv AS (
         SELECT 'inv_bench_' || w || '_' || j AS id, 'ws_bench_' || w AS ws, lower(a) AS key, a, (10 + j)::numeric + (w + 1) * 0.000001 AS pay
           FROM unnest($1::text[]) WITH ORDINALITY AS t(a, n), LATERAL (SELECT n - 1 AS w) x, generate_series(0, $2::int - 1) j),
       r AS (INSERT INTO amount_reservations (network, currency, address, pay_amount, invoice_id, reserved_until)
             SELECT 'ethereum', 'USDT', key, pay, id, $3::timestamptz + interval '25 hours' FROM inv)
       INSERT INTO invoices (id, workspace_id, environment, amount, currency, network, pay_address, metadata, created_at, expires_at, pay_amount)
       SELECT id, ws, 'live', pay - (pay - trunc(pay)), 'USDT', 'ethereum', a, '{}', $3::timestamptz - interval '1 minute', $3::timestamptz + interval '1 hour', pay FROM inv`,
      [wallets, INVOICES_PER_WALLET, now],
    );
    await pool.query('ANALYZE');

    const watcher = new EvmWatcher('ethereum', { log: () => undefined });
    await watcher.tick(); // cursor at the head: the range below is what gets measured

    // 1,000 transfers, PER_BLOCK per block (automine off, then one block per batch), each paying invoice j=0 of a wallet.
    const account = privateKeyToAccount(DEV_ACCOUNTS[0].privateKey);
    const wallet = createWalletClient({ account, transport: http(chain.rpcUrl) });
    const client = createPublicClient({ transport: http(chain.rpcUrl) });
    const test = createTestClient({ mode: 'hardhat', transport: http(chain.rpcUrl) });
    await test.setAutomine(false);
    let nonce = await client.getTransactionCount({ address: account.address });
    const started = Date.now();
    for (let i = 0; i < TRANSFERS; i++) {
      const w = i % WALLETS;
      await wallet.writeContract({
        address: chain.tokens.USDT as Address,
        abi: ERC20_TRANSFER_ABI,
        functionName: 'transfer',
        args: [wallets[w]!, 10_000_000n + BigInt(w + 1)],
        nonce: nonce++,
        gas: 100_000n,
        chain: null,
      });
      if ((i + 1) % PER_BLOCK === 0 || i === TRANSFERS - 1) await test.mine({ blocks: 1 });
    }
    await test.setAutomine(true);
    const blocks = Math.ceil(TRANSFERS / PER_BLOCK);
    console.error(`sent ${TRANSFERS} transfers in ${blocks} blocks (${((Date.now() - started) / 1000).toFixed(1)} s)`);

    rpcCallCounter.clear();
    let t = Date.now();
    await watcher.tick();
    const detectMs = Date.now() - t;
    const detectCalls = rpcCallCounter.get('ethereum') ?? 0;
    const processing = (await pool.query(`SELECT count(*)::int AS n FROM invoices WHERE status = 'processing'`)).rows[0].n as number;

    await test.mine({ blocks: CONFIRMATIONS - 1 });
    rpcCallCounter.clear();
    t = Date.now();
    await watcher.tick();
    const confirmMs = Date.now() - t;
    const confirmCalls = rpcCallCounter.get('ethereum') ?? 0;
    const paid = (await pool.query(`SELECT count(*)::int AS n FROM invoices WHERE status = 'paid'`)).rows[0].n as number;
    const events = (await pool.query(`SELECT type, count(*)::int AS n FROM events GROUP BY type ORDER BY type`)).rows;

    const settleSeconds = (detectMs + confirmMs) / 1000;
    // Blocks the two passes read: the range, then the confirmation blocks.
    const rpcCallsPerBlock = Number(((detectCalls + confirmCalls) / (blocks + CONFIRMATIONS - 1)).toFixed(2));
    console.log(
      JSON.stringify(
        {
          scenario: '(h) chain watcher',
          open_invoices: WALLETS * INVOICES_PER_WALLET,
          wallets: WALLETS,
          transfers: TRANSFERS,
          blocks,
          detect: { seconds: detectMs / 1000, rpc_calls: detectCalls, invoices_processing: processing },
          confirm: { seconds: confirmMs / 1000, rpc_calls: confirmCalls, invoices_paid: paid },
          settle_seconds: settleSeconds,
          rpc_calls: detectCalls + confirmCalls,
          rpc_calls_per_block: rpcCallsPerBlock,
          events,
        },
        null,
        2,
      ),
    );
    console.log(
      `  goals: settle ${TRANSFERS} transfers ≤ 2 s → ${settleSeconds.toFixed(2)} s (${settleSeconds <= 2 ? 'met' : 'NOT met'}); ` +
        `JSON-RPC requests per block read O(1) → ${rpcCallsPerBlock}`,
    );
    // The Bitcoin row: 1,000 outputs of one block paying 1,000 of 10,000 open invoices (an address each).
    const btc = await bitcoinRow({ rpcUrl: bitcoin.rpcUrl, invoices: BITCOIN_INVOICES, payments: BITCOIN_PAYMENTS, confirmations: BITCOIN_CONFIRMATIONS });
    console.log(JSON.stringify(btc, null, 2));
    console.log(
      `  goals (Bitcoin): settle ${BITCOIN_PAYMENTS} outputs of one block among ${BITCOIN_INVOICES} open invoices ≤ 2 s → ${btc.settle_seconds.toFixed(2)} s ` +
        `(${btc.settle_seconds <= 2 ? 'met' : 'NOT met'}); JSON-RPC calls per block O(1) → ${btc.rpc_calls_per_block}`,
    );
    await disconnectDb();
  } finally {
    await bitcoin.stop();
    await chain.stop();
    await database.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
