// A local Bitcoin regtest node from npm packages (bcoin, a full node in JavaScript; no download, no Docker) behind
// a thin adapter that makes its JSON-RPC answer as Bitcoin Core's does for the calls the watcher makes
// (docs/settlement.md). Used by `npm run chain -- --network bitcoin`, the vitest global setup, the Playwright flow
// and the benchmark. The adapter is local-chain tooling: the watcher speaks plain Bitcoin Core RPC and never
// knows which node answers.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import path from 'node:path';
import { hex } from '@scure/base';
import { HDKey } from '@scure/bip32';
import { Address, OutScript, p2pkh, Transaction, WIF } from '@scure/btc-signer';
import { ADDRESS_ENCODING } from '../../lib/chain/bitcoin/chain';
import { BitcoinRpc } from '../../lib/chain/bitcoin/rpc';
import { fromBaseUnits, toBaseUnits } from '../../lib/chain/payment-uri';
import { freePort } from '../db/embedded';

const ROOT = path.resolve(import.meta.dirname, '../..');
const BCOIN_NODE = path.join(ROOT, 'node_modules/bcoin/bin/node');
const REGTEST = ADDRESS_ENCODING.regtest;
/** bcoin's own regtest address encoding (Core's is bcrt1… and m/n…): the adapter translates between them. */
const BCOIN_REGTEST = { bech32: 'rb', pubKeyHash: 0x3c, scriptHash: 0x26, wif: 0xef };

function toBcoinAddress(address: string): string {
  return Address(BCOIN_REGTEST).encode(Address(REGTEST).decode(address));
}

/**
 * The funded development key (publicly known: local regtest use only, never on a real chain). Blocks are mined to
 * its P2PKH address; payments spend its mature coinbase outputs (signed here with @scure/btc-signer).
 */
const FUNDED_PRIVATE_KEY = hex.decode('1111111111111111111111111111111111111111111111111111111111111111');
const funded = p2pkh(secp256k1PublicKey(FUNDED_PRIVATE_KEY), REGTEST);
export const FUNDED_WALLET = {
  address: funded.address!,
  private_key_wif: WIF(REGTEST).encode(FUNDED_PRIVATE_KEY),
};

/**
 * An example merchant wallet for local use (a publicly known seed: never receive real funds with it): its
 * account key m/84'/1'/0' as a vpub, what the portal's Wallets page takes on regtest.
 */
const EXAMPLE_ACCOUNT = HDKey.fromMasterSeed(hex.decode('000102030405060708090a0b0c0d0e0f'), {
  private: 0x045f18bc,
  public: 0x045f1cf6,
}).derive("m/84'/1'/0'");
export const EXAMPLE_XPUB = EXAMPLE_ACCOUNT.publicExtendedKey;

function secp256k1PublicKey(privateKey: Uint8Array): Uint8Array {
  return new HDKey({ privateKey, chainCode: new Uint8Array(32) }).publicKey!;
}

/** The e2e server's node credentials (local, throwaway): the Playwright specs build its URL from E2E_BITCOIN_PORT. */
export const E2E_BITCOIN_CREDENTIALS = 'e2e:regtest';

/** Blocks mined at start: 100 of their coinbase outputs are mature (spendable) at once. */
const INITIAL_BLOCKS = 200;
const COINBASE_MATURITY = 100;

export interface BitcoinNodeOptions {
  /** The adapter's port (the rpc_url the app is given); 0 = a free one. */
  port?: number;
  /** `user:password` of the RPC URL; random when not given. */
  credentials?: string;
  host?: string;
  stdio?: 'inherit' | 'ignore';
}

export interface BitcoinNode {
  /** Bitcoin Core-compatible JSON-RPC, with credentials in the URL (as RPC_URL_BITCOIN takes them). */
  rpcUrl: string;
  chain: 'regtest';
  child: ChildProcess;
  stop(): Promise<void>;
}

async function bcoinCall(url: string, apiKey: string, method: string, params: unknown[]): Promise<unknown> {
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      authorization: `Basic ${Buffer.from(`x:${apiKey}`).toString('base64')}`,
    },
    body: JSON.stringify({ method, params, id: 1 }),
  });
  const body = (await response.json()) as { result: unknown; error: { message: string; code: number } | null };
  if (body.error) throw Object.assign(new Error(body.error.message), { code: body.error.code });
  return body.result;
}

/**
 * Bitcoin Core's parameters, as bcoin takes them: `getblock <hash> <verbosity 0|1|2>` is bcoin's
 * `getblock <hash> <verbose> <details>`; `getrawtransaction <txid> <verbose as number or bool>` wants a bool;
 * addresses are Core's regtest encoding (bcrt1…, m/n…), bcoin's are rb1… and R…. Everything else is passed through.
 */
function toBcoinParams(method: string, params: unknown[]): unknown[] {
  if (method === 'getblock') {
    const verbosity =
      params[1] === undefined ? 1 : Number(params[1] === true ? 1 : params[1] === false ? 0 : params[1]);
    return [params[0], verbosity >= 1, verbosity >= 2];
  }
  if (method === 'getrawtransaction' && params.length > 1) return [params[0], Boolean(params[1])];
  // Addresses in Core's regtest encoding (bcoin's differs).
  if (method === 'generatetoaddress') return [params[0], toBcoinAddress(String(params[1]))];
  return params;
}

/**
 * `invalidateblock` as Bitcoin Core does it for the transactions involved: bcoin empties its whole mempool when
 * it invalidates a block (Core keeps it) and drops the disconnected blocks' transactions (Core puts them back in
 * the mempool). The adapter reads those blocks first and sends their transactions back afterwards; what was only
 * in the mempool is lost (which the tests use to model a payment that is dropped before it confirms).
 */
async function invalidateLikeCore(
  call: (method: string, params: unknown[]) => Promise<unknown>,
  hash: string,
): Promise<null> {
  const tip = (await call('getblockchaininfo', [])) as { blocks: number };
  const target = (await call('getblock', [hash, 1])) as { height: number };
  const disconnected: string[] = [];
  for (let height = target.height; height <= tip.blocks; height++) {
    const blockHash = await call('getblockhash', [height]);
    const raw = (await call('getblock', [blockHash, 2])) as {
      tx: Array<{ txid: string; vin: Array<{ coinbase?: string }> }>;
    };
    for (const tx of raw.tx)
      if (!tx.vin[0]?.coinbase) disconnected.push((await call('getrawtransaction', [tx.txid, false])) as string);
  }
  await call('invalidateblock', [hash]);
  // In block order, so parents come before children; coinbase spends no longer mature are refused (Core drops them too).
  for (const tx of disconnected) await sendLikeCore(call, [tx]).catch(() => undefined);
  return null;
}

/**
 * `sendrawtransaction` as Core answers it: once the transaction is in the mempool, or with an error. bcoin answers
 * the txid at once, adds the transaction in the background and only logs a rejection.
 */
async function sendLikeCore(
  call: (method: string, params: unknown[]) => Promise<unknown>,
  params: unknown[],
): Promise<unknown> {
  const txid = await call('sendrawtransaction', params);
  const deadline = Date.now() + 5000;
  while (Date.now() < deadline) {
    if (
      await call('getmempoolentry', [txid]).then(
        () => true,
        () => false,
      )
    )
      return txid;
    // Already mined (a block was made meanwhile) also counts as accepted.
    if (
      await call('getrawtransaction', [txid, true]).then(
        (tx) => Boolean((tx as { blockhash?: string }).blockhash),
        () => false,
      )
    )
      return txid;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw Object.assign(new Error('transaction rejected by the node (not in its mempool; see the node log)'), {
    code: -26,
  });
}

function startAdapter(
  host: string,
  port: number,
  target: { url: string; apiKey: string },
  credentials: string,
): Promise<http.Server> {
  const call = (method: string, params: unknown[]) =>
    bcoinCall(target.url, target.apiKey, method, toBcoinParams(method, params));
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', async () => {
      const reply = (status: number, body: unknown) => {
        response.writeHead(status, { 'content-type': 'application/json' });
        response.end(JSON.stringify(body));
      };
      if (request.headers.authorization !== `Basic ${Buffer.from(credentials).toString('base64')}`)
        return reply(401, { error: 'unauthorized' });
      let payload: unknown;
      try {
        payload = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        return reply(500, { result: null, error: { code: -32700, message: 'Parse error' }, id: null });
      }
      const one = async (entry: { method?: string; params?: unknown[]; id?: unknown }) => {
        const method = String(entry.method);
        const params = Array.isArray(entry.params) ? entry.params : [];
        try {
          const result =
            method === 'invalidateblock'
              ? await invalidateLikeCore(call, String(params[0]))
              : method === 'sendrawtransaction'
                ? await sendLikeCore(call, params)
                : await call(method, params);
          return { result, error: null, id: entry.id ?? null };
        } catch (error) {
          const code = (error as { code?: number }).code ?? -1;
          return { result: null, error: { code, message: (error as Error).message }, id: entry.id ?? null };
        }
      };
      if (Array.isArray(payload)) return reply(200, await Promise.all(payload.map(one)));
      const answer = await one(payload as { method?: string });
      // Core answers an RPC error with HTTP 500 (404 for an unknown method); clients read the JSON body either way.
      reply(answer.error ? (answer.error.code === -32601 ? 404 : 500) : 200, answer);
    });
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve(server));
  });
}

async function waitForNode(url: string, apiKey: string, child: ChildProcess, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`bcoin exited with code ${child.exitCode}`);
    try {
      await bcoinCall(url, apiKey, 'getblockchaininfo', []);
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  throw new Error(`bcoin did not answer on ${url} within ${timeoutMs / 1000} s`);
}

/** Starts bcoin on regtest (in memory), the Core-compatible adapter in front of it, and mines the funded coins. */
export async function startBitcoinNode(options: BitcoinNodeOptions = {}): Promise<BitcoinNode> {
  const host = options.host ?? '127.0.0.1';
  const [httpPort, walletPort, p2pPort, peerPort] = [
    await freePort(),
    await freePort(),
    await freePort(),
    await freePort(),
  ];
  const apiKey = randomBytes(16).toString('hex');
  const child = spawn(
    process.execPath,
    [
      BCOIN_NODE,
      '--network=regtest',
      '--memory=true',
      '--index-tx=true',
      '--index-address=true',
      `--http-host=${host}`,
      `--http-port=${httpPort}`,
      `--wallet-http-port=${walletPort}`,
      `--port=${p2pPort}`,
      '--listen=false',
      // No peers: --only names a port nobody listens on (bcoin would otherwise look up seeds; --max-outbound=0 crashes it).
      `--only=127.0.0.1:${peerPort}`,
      `--api-key=${apiKey}`,
      `--wallet-api-key=${apiKey}`,
      '--workers=false',
      '--log-level=warning',
    ],
    { cwd: ROOT, stdio: options.stdio === 'inherit' ? ['ignore', 'inherit', 'inherit'] : 'ignore' },
  );
  const bcoinUrl = `http://${host}:${httpPort}/`;
  let adapter: http.Server | undefined;
  const stop = async () => {
    await new Promise<void>((resolve) => (adapter ? adapter.close(() => resolve()) : resolve()));
    if (child.exitCode === null) {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
    }
  };
  try {
    await waitForNode(bcoinUrl, apiKey, child);
    const port = options.port || (await freePort());
    const credentials = options.credentials ?? `regtest:${randomBytes(12).toString('hex')}`;
    adapter = await startAdapter(host, port, { url: bcoinUrl, apiKey }, credentials);
    const rpcUrl = `http://${credentials}@${host}:${port}/`;
    await mineBlocks(rpcUrl, INITIAL_BLOCKS);
    return { rpcUrl, chain: 'regtest', child, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** Mines `count` blocks to the funded address; returns the new height. */
export async function mineBlocks(rpcUrl: string, count: number): Promise<number> {
  const rpc = new BitcoinRpc([rpcUrl]);
  // bcoin mines a block in a few ms; in slices so one call never runs long.
  for (let left = count; left > 0; left -= 50)
    await rpc.call('generatetoaddress', [Math.min(50, left), FUNDED_WALLET.address]);
  return ((await rpc.call('getblockchaininfo', [])) as { blocks: number }).blocks;
}

/** Invalidates the last `count` blocks (their transactions go back to the mempool, as in Core); returns the new height. */
export async function reorgBlocks(rpcUrl: string, count: number): Promise<number> {
  const rpc = new BitcoinRpc([rpcUrl]);
  const height = ((await rpc.call('getblockchaininfo', [])) as { blocks: number }).blocks;
  if (count < 1 || count > height) throw new Error(`reorg needs 1..${height} blocks`);
  await rpc.call('invalidateblock', [await rpc.call('getblockhash', [height - count + 1])]);
  return height - count;
}

/** Outpoints this process spent already (the node's view lags behind a transaction just sent). */
const spent = new Set<string>();

/** A mature, unspent coinbase output of the funded address, newest first. */
async function spendableCoinbase(rpc: BitcoinRpc): Promise<{ txid: string; value: bigint; raw: string }> {
  const height = ((await rpc.call('getblockchaininfo', [])) as { blocks: number }).blocks;
  for (let h = height - COINBASE_MATURITY; h >= 1; h--) {
    const block = (await rpc.call('getblock', [await rpc.call('getblockhash', [h]), 1])) as { tx: string[] };
    const txid = block.tx[0]!;
    if (spent.has(txid)) continue;
    const out = (await rpc.call('gettxout', [txid, 0, true])) as {
      value: string;
      scriptPubKey: { hex: string };
    } | null;
    if (!out || out.scriptPubKey.hex !== hex.encode(funded.script)) continue;
    return {
      txid,
      value: toBaseUnits(out.value, 8),
      raw: (await rpc.call('getrawtransaction', [txid, false])) as string,
    };
  }
  throw new Error('no mature coins left: mine more blocks (npm run chain -- --network bitcoin mine 100)');
}

/** One output of a payment: an address of the regtest chain (bcrt1…) and an amount in BTC (decimal string). */
export interface BitcoinOutput {
  address: string;
  amount: string;
}

/**
 * Sends one transaction paying `outputs` from the funded key (one mature coinbase output in, change back), and
 * returns its txid. It stays in the mempool until blocks are mined.
 */
export async function sendBitcoin(rpcUrl: string, outputs: BitcoinOutput[]): Promise<string> {
  const rpc = new BitcoinRpc([rpcUrl]);
  const coin = await spendableCoinbase(rpc);
  spent.add(coin.txid);
  const tx = new Transaction();
  tx.addInput({ txid: coin.txid, index: 0, nonWitnessUtxo: hex.decode(coin.raw) });
  let total = 0n;
  for (const output of outputs) {
    const amount = toBaseUnits(output.amount, 8);
    total += amount;
    tx.addOutput({ script: OutScript.encode(Address(REGTEST).decode(output.address)), amount });
  }
  // 10 sat/vB on a generous size estimate: well above bcoin's minimum relay fee.
  const fee = BigInt(200 + 45 * outputs.length) * 10n;
  if (coin.value < total + fee)
    throw new Error(`one payment can send at most ${fromBaseUnits(coin.value - fee, 8)} BTC`);
  const change = coin.value - total - fee;
  if (change > 1000n) tx.addOutput({ script: funded.script, amount: change });
  tx.sign(FUNDED_PRIVATE_KEY);
  tx.finalize();
  return (await rpc.call('sendrawtransaction', [tx.hex])) as string;
}

/** Parses a BIP-21 URI as the app writes it: bitcoin:<address>?amount=<btc>. */
export function parseBip21(uri: string): BitcoinOutput {
  const match = /^bitcoin:([a-zA-Z0-9]+)\?amount=(\d+(?:\.\d{1,8})?)$/.exec(uri);
  if (!match) throw new Error(`not a BIP-21 payment URI with an amount: ${uri}`);
  return { address: match[1]!, amount: match[2]! };
}
