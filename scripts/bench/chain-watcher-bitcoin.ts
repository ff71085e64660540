/**
 * Scenario (h), Bitcoin row (docs/settlement.md, docs/benchmarks.md): 10,000 open live BTC invoices, each with its
 * own address, and one block holding a transaction with 1,000 outputs that pay 1,000 of them. Measures the seconds
 * the Bitcoin watcher takes to settle them (inclusion → processing, then at CONFIRMATIONS_BITCOIN → paid) and the
 * JSON-RPC calls it makes per block, against the bcoin regtest node behind its Core-compatible RPC. Run by
 * chain-watcher.ts, which sets RPC_URL_BITCOIN and DATABASE_URL before anything reads the environment.
 */
import { randomBytes } from 'node:crypto';
import { hex } from '@scure/base';
import { Address, OutScript } from '@scure/btc-signer';
import { ADDRESS_ENCODING } from '../../lib/chain/bitcoin/chain';
import { mineBlocks, sendBitcoin } from '../chain/bitcoin-node';

export interface BitcoinRowOptions {
  rpcUrl: string;
  invoices: number;
  payments: number;
  confirmations: number;
}

export async function bitcoinRow({ rpcUrl, invoices, payments, confirmations }: BitcoinRowOptions) {
  const { durablePool } = await import('../../lib/db');
  const { BitcoinWatcher } = await import('../../lib/chain/bitcoin/bitcoin-watcher');
  const { rpcCallCounter } = await import('../../lib/chain/evm/client');
  const pool = durablePool();
  // Invoice addresses: native segwit scripts of random key hashes (the watcher matches scripts; how an address was
  // derived does not change its cost), one workspace per 10 invoices.
  const hashes = Array.from({ length: invoices }, () => randomBytes(20));
  const addresses = hashes.map((hash) => Address(ADDRESS_ENCODING.regtest).encode({ type: 'wpkh', hash }));
  const scripts = hashes.map((hash) => hex.encode(OutScript.encode({ type: 'wpkh', hash })));
  const workspaces = Math.ceil(invoices / 10);
  await pool.query(`INSERT INTO workspaces (id, name) SELECT 'ws_btc_' || i, 'bench btc ' || i FROM generate_series(0, $1::int - 1) i`, [workspaces]);
  const now = new Date();
  await pool.query(
    `WITH inv AS (
       SELECT 'inv_btc_' || (n - 1) AS id, 'ws_btc_' || ((n - 1) / 10) AS ws, a, s, n - 1 AS idx
         FROM unnest($1::text[], $2::text[]) WITH ORDINALITY AS t(a, s, n)),
     i AS (
       INSERT INTO invoices (id, workspace_id, environment, amount, currency, network, pay_address, metadata, created_at, expires_at, pay_amount)
       SELECT id, ws, 'live', 0.0001, 'BTC', 'bitcoin', a, '{}', $3::timestamptz - interval '1 minute', $3::timestamptz + interval '1 hour', 0.0001 FROM inv)
     INSERT INTO bitcoin_addresses (network, script_pubkey, address, account_key, derivation_index, workspace_id, invoice_id, created_at)
     SELECT 'bitcoin', s, a, 'bench', idx, ws, id, $3::timestamptz FROM inv`,
    [addresses, scripts, now],
  );
  await pool.query('ANALYZE');

  const watcher = new BitcoinWatcher({ initialLookback: 0, log: () => undefined });
  await watcher.tick();
  const step = Math.floor(invoices / payments);
  const paid = Array.from({ length: payments }, (_, i) => ({ address: addresses[i * step]!, amount: '0.0001' }));
  await sendBitcoin(rpcUrl, paid);
  await mineBlocks(rpcUrl, 1);

  rpcCallCounter.clear();
  let t = Date.now();
  await watcher.tick();
  const detectMs = Date.now() - t;
  const detectCalls = rpcCallCounter.get('bitcoin') ?? 0;
  const processing = (await pool.query(`SELECT count(*)::int AS n FROM invoices WHERE network = 'bitcoin' AND status = 'processing'`)).rows[0].n as number;

  await mineBlocks(rpcUrl, confirmations - 1);
  rpcCallCounter.clear();
  t = Date.now();
  await watcher.tick();
  const confirmMs = Date.now() - t;
  const confirmCalls = rpcCallCounter.get('bitcoin') ?? 0;
  const paidCount = (await pool.query(`SELECT count(*)::int AS n FROM invoices WHERE network = 'bitcoin' AND status = 'paid'`)).rows[0].n as number;
  const blocks = confirmations;
  const settleSeconds = (detectMs + confirmMs) / 1000;
  return {
    scenario: '(h) chain watcher, Bitcoin',
    open_invoices: invoices,
    outputs_paid: payments,
    blocks,
    detect: { seconds: detectMs / 1000, rpc_calls: detectCalls, invoices_processing: processing },
    confirm: { seconds: confirmMs / 1000, rpc_calls: confirmCalls, invoices_paid: paidCount },
    settle_seconds: settleSeconds,
    rpc_calls: detectCalls + confirmCalls,
    rpc_calls_per_block: Number(((detectCalls + confirmCalls) / blocks).toFixed(2)),
  };
}
