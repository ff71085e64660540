/**
 * Benchmark scenario (h), Tron row: as scripts/bench/chain-watcher.ts for ethereum, through the TRON JSON-RPC
 * façade over the local node — 10,000 open live USDT invoices on 1,000 Tron wallets (base58), a block range
 * holding 1,000 TRC-20 transfers that match 1,000 of them. Measures the seconds the Tron watcher takes to settle
 * them (first inclusion → processing, then at the façade's finalized block, logs re-read → paid) and the
 * JSON-RPC requests it sends to the TRON endpoint.
 *
 *   npx tsx scripts/bench/chain-watcher-tron.ts   (own embedded PostgreSQL, local chain and façade; BENCH_H_TRANSFERS,
 *                                                  BENCH_H_WALLETS, BENCH_H_INVOICES_PER_WALLET, BENCH_H_PER_BLOCK)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createPublicClient, createTestClient, createWalletClient, getAddress, http, type Address } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { tronToBase58 } from '../../lib/chain/tron/address';
import { ensureEmbeddedDatabase, freePort } from '../db/embedded';
import { migrate } from '../db/migrate';
import { DEV_ACCOUNTS, ERC20_TRANSFER_ABI, startLocalChain } from '../chain/local-chain';
import { startLocalTron, TRON_RULES, tronChainSettings } from '../chain/tron-local';

const TRANSFERS = Number(process.env.BENCH_H_TRANSFERS ?? 1000);
const WALLETS = Number(process.env.BENCH_H_WALLETS ?? 1000);
const INVOICES_PER_WALLET = Number(process.env.BENCH_H_INVOICES_PER_WALLET ?? 10);
const PER_BLOCK = Number(process.env.BENCH_H_PER_BLOCK ?? 100);

async function main() {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-h-tron-'));
  const database = await ensureEmbeddedDatabase({ dataDir: path.join(dir, 'pg'), port: 0, database: 'bench_h_tron', verbose: false });
  const chain = await startLocalChain({ port: await freePort() });
  const tron = await startLocalTron(chain);
  try {
    await migrate(database.url, { quiet: true });
    Object.assign(process.env, { DATABASE_URL: database.url, ...tronChainSettings(tron) });
    // Imported after the environment is set: lib/env reads it once.
    const { durablePool, disconnectDb } = await import('../../lib/db');
    const { TronWatcher } = await import('../../lib/chain/tron/tron-watcher');
    const { rpcCallCounter } = await import('../../lib/chain/evm/client');
    const pool = durablePool();

    // 1,000 workspaces with one Tron wallet each (base58, stored and reserved as is); 10 open live USDT invoices
    // per wallet with their reservations (amount 10 + k, suffix i), as the API would have created them.
    const hexWallets = Array.from({ length: WALLETS }, (_, i) => getAddress(`0x${(0x100000 + i).toString(16).padStart(40, 'b')}`));
    const wallets = hexWallets.map((address) => tronToBase58(address));
    await pool.query(`INSERT INTO workspaces (id, name) SELECT 'ws_bench_' || i, 'bench ' || i FROM generate_series(0, $1::int - 1) i`, [WALLETS]);
    await pool.query(
      `INSERT INTO wallets (workspace_id, network, address) SELECT 'ws_bench_' || i, 'tron', a FROM unnest($1::text[]) WITH ORDINALITY AS t(a, n), LATERAL (SELECT n - 1 AS i) x`,
      [wallets],
    );
    const now = new Date();
    await pool.query(
      `WITH inv AS (
         SELECT 'inv_bench_' || w || '_' || j AS id, 'ws_bench_' || w AS ws, a, (10 + j)::numeric + (w + 1) * 0.000001 AS pay
           FROM unnest($1::text[]) WITH ORDINALITY AS t(a, n), LATERAL (SELECT n - 1 AS w) x, generate_series(0, $2::int - 1) j),
       r AS (INSERT INTO amount_reservations (network, currency, address, pay_amount, invoice_id, reserved_until)
             SELECT 'tron', 'USDT', a, pay, id, $3::timestamptz + interval '25 hours' FROM inv)
       INSERT INTO invoices (id, workspace_id, environment, amount, currency, network, pay_address, metadata, created_at, expires_at, pay_amount)
       SELECT id, ws, 'live', pay - (pay - trunc(pay)), 'USDT', 'tron', a, '{}', $3::timestamptz - interval '1 minute', $3::timestamptz + interval '1 hour', pay FROM inv`,
      [wallets, INVOICES_PER_WALLET, now],
    );
    await pool.query('ANALYZE');

    const watcher = new TronWatcher({ log: () => undefined });
    await watcher.verify();
    await watcher.tick(); // cursor at the head: the range below is what gets measured

    // 1,000 TRC-20 transfers, PER_BLOCK per block, each paying invoice j=0 of a wallet.
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
        args: [hexWallets[w]!, 10_000_000n + BigInt(w + 1)],
        nonce: nonce++,
        gas: 100_000n,
        chain: null,
      });
      if ((i + 1) % PER_BLOCK === 0 || i === TRANSFERS - 1) await test.mine({ blocks: 1 });
    }
    await test.setAutomine(true);
    const blocks = Math.ceil(TRANSFERS / PER_BLOCK);
    console.error(`sent ${TRANSFERS} TRC-20 transfers in ${blocks} blocks (${((Date.now() - started) / 1000).toFixed(1)} s)`);

    rpcCallCounter.clear();
    let t = Date.now();
    await watcher.tick();
    const detectMs = Date.now() - t;
    const detectCalls = rpcCallCounter.get('tron') ?? 0;
    const processing = (await pool.query(`SELECT count(*)::int AS n FROM invoices WHERE status = 'processing'`)).rows[0].n as number;

    // The façade's finalized block is head − 19: that many blocks make the whole range final.
    await test.mine({ blocks: TRON_RULES.finalizedDepth });
    rpcCallCounter.clear();
    t = Date.now();
    await watcher.tick();
    const confirmMs = Date.now() - t;
    const confirmCalls = rpcCallCounter.get('tron') ?? 0;
    const paid = (await pool.query(`SELECT count(*)::int AS n FROM invoices WHERE status = 'paid'`)).rows[0].n as number;
    const events = (await pool.query(`SELECT type, count(*)::int AS n FROM events GROUP BY type ORDER BY type`)).rows;
    const refused = tron.facade.refusals.length;

    const settleSeconds = (detectMs + confirmMs) / 1000;
    const blocksRead = blocks + TRON_RULES.finalizedDepth;
    const rpcCallsPerBlock = Number(((detectCalls + confirmCalls) / blocksRead).toFixed(2));
    console.log(
      JSON.stringify(
        {
          scenario: '(h) chain watcher — tron',
          open_invoices: WALLETS * INVOICES_PER_WALLET,
          wallets: WALLETS,
          transfers: TRANSFERS,
          blocks,
          detect: { seconds: detectMs / 1000, rpc_calls: detectCalls, invoices_processing: processing },
          confirm: { seconds: confirmMs / 1000, rpc_calls: confirmCalls, invoices_paid: paid },
          settle_seconds: settleSeconds,
          rpc_calls: detectCalls + confirmCalls,
          rpc_calls_per_block: rpcCallsPerBlock,
          requests_refused_by_facade: refused,
          events,
        },
        null,
        2,
      ),
    );
    console.log(
      `  goals (tron): settle ${TRANSFERS} transfers ≤ 2 s → ${settleSeconds.toFixed(2)} s (${settleSeconds <= 2 ? 'met' : 'NOT met'}); ` +
        `JSON-RPC requests per block read O(1) → ${rpcCallsPerBlock} (${detectCalls + confirmCalls} for ${blocksRead} blocks); refused by the façade: ${refused}`,
    );
    await disconnectDb();
    if (paid !== TRANSFERS || refused > 0) process.exitCode = 1;
  } finally {
    await tron.facade.close();
    await chain.stop();
    await database.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
