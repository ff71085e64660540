// A local EVM node from npm packages (hardhat 2.29's EDR engine, no download, no Docker) with mock USDT and
// USDC deployed: used by `npm run chain`, the vitest global setup, the Playwright flow and the benchmark.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createPublicClient, createWalletClient, getAddress, http, type Abi, type Address, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { ensureMockTokenFixture } from './compile';
import { deployRateFeeds, rateFeedSettings, type RateFeeds } from './rate-feeds';

const ROOT = path.resolve(import.meta.dirname, '../..');
const HARDHAT_CLI = path.join(ROOT, 'node_modules/hardhat/internal/cli/cli.js');

/** Hardhat's publicly known development accounts (never use them on a real chain). */
export const DEV_ACCOUNTS = [
  {
    address: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
    privateKey: '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80',
  },
  {
    address: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
    privateKey: '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d',
  },
  {
    address: '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC',
    privateKey: '0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a',
  },
] as const satisfies ReadonlyArray<{ address: Address; privateKey: Hex }>;

export const LOCAL_CHAIN_ID = 31337;
/** Mock tokens minted to account 0: 1,000,000,000 units of 6 decimals each. */
const SUPPLY = 1_000_000_000n * 10n ** 6n;

export interface LocalChainOptions {
  port: number;
  host?: string;
  /** Mine a block every N ms on top of one per transaction (npm run chain); 0 = only on demand (tests). */
  blockIntervalMs?: number;
  /** Where hardhat's output goes. */
  stdio?: 'inherit' | 'ignore';
}

export interface LocalChain {
  rpcUrl: string;
  chainId: number;
  tokens: { USDT: Address; USDC: Address };
  /** Mock Chainlink price feeds (scripts/chain/rate-feeds.ts). */
  feeds: RateFeeds;
  funded: (typeof DEV_ACCOUNTS)[0];
  child: ChildProcess;
  stop(): Promise<void>;
}

async function rpc(url: string, method: string, params: unknown[] = []): Promise<unknown> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  const body = (await response.json()) as { result?: unknown; error?: { message: string } };
  if (body.error) throw new Error(body.error.message);
  return body.result;
}

async function waitForNode(url: string, child: ChildProcess, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`hardhat node exited with code ${child.exitCode}`);
    try {
      await rpc(url, 'eth_chainId');
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  throw new Error(`hardhat node did not answer on ${url} within ${timeoutMs / 1000} s`);
}

/** Deploys one MockToken from account 0 and returns its address. */
export async function deployMockToken(rpcUrl: string, name: string, symbol: string): Promise<Address> {
  const fixture = ensureMockTokenFixture();
  const account = privateKeyToAccount(DEV_ACCOUNTS[0].privateKey);
  const wallet = createWalletClient({ account, transport: http(rpcUrl) });
  const client = createPublicClient({ transport: http(rpcUrl) });
  const hash = await wallet.deployContract({
    abi: fixture.abi as Abi,
    bytecode: fixture.bytecode,
    args: [name, symbol, SUPPLY],
    chain: null,
  });
  const receipt = await client.waitForTransactionReceipt({ hash, pollingInterval: 50 });
  if (!receipt.contractAddress) throw new Error(`deploying ${symbol} failed`);
  return getAddress(receipt.contractAddress);
}

/**
 * Starts the node, waits for it, deploys mock USDT then mock USDC from account 0 (nonces 0 and 1: the same
 * addresses on every fresh start).
 */
export async function startLocalChain(options: LocalChainOptions): Promise<LocalChain> {
  const host = options.host ?? '127.0.0.1';
  // Hardhat wants a config and a sources folder; an empty one means it never looks for a Solidity compiler.
  const dir = mkdtempSync(path.join(os.tmpdir(), 'local-chain-'));
  mkdirSync(path.join(dir, 'contracts'));
  const interval = options.blockIntervalMs ?? 0;
  writeFileSync(
    path.join(dir, 'hardhat.config.cjs'),
    `module.exports = { paths: { root: ${JSON.stringify(dir)}, sources: 'contracts', cache: 'cache', artifacts: 'artifacts' },
      networks: { hardhat: { chainId: ${LOCAL_CHAIN_ID}, mining: { auto: true, interval: ${interval > 0 ? interval : 0} } } } };\n`,
  );
  const child = spawn(
    process.execPath,
    [
      HARDHAT_CLI,
      'node',
      '--hostname',
      host,
      '--port',
      String(options.port),
      '--config',
      path.join(dir, 'hardhat.config.cjs'),
    ],
    {
      // Hardhat refuses to run unless it is installed where it runs (HH12): run from the project.
      cwd: ROOT,
      stdio: options.stdio === 'inherit' ? ['ignore', 'inherit', 'inherit'] : 'ignore',
      env: { ...process.env, HARDHAT_DISABLE_TELEMETRY_PROMPT: 'true', DO_NOT_TRACK: '1' },
    },
  );
  const rpcUrl = `http://${host}:${options.port}`;
  const stop = async () => {
    if (child.exitCode === null) {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
    }
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await waitForNode(rpcUrl, child);
    const USDT = await deployMockToken(rpcUrl, 'Tether USD (local mock)', 'USDT');
    const USDC = await deployMockToken(rpcUrl, 'USD Coin (local mock)', 'USDC');
    const feeds = await deployRateFeeds(rpcUrl);
    return { rpcUrl, chainId: LOCAL_CHAIN_ID, tokens: { USDT, USDC }, feeds, funded: DEV_ACCOUNTS[0], child, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** The app settings that point a network's watcher at this chain. */
export function chainSettings(
  chain: Pick<LocalChain, 'rpcUrl' | 'chainId' | 'tokens'> & { feeds?: RateFeeds },
  network: 'ethereum' | 'polygon' | 'base',
): Record<string, string> {
  const n = network.toUpperCase();
  const settings: Record<string, string> = { [`RPC_URL_${n}`]: chain.rpcUrl, [`CHAIN_ID_${n}`]: String(chain.chainId) };
  // Only the pairs docs/api.md supports on that network (USDT is not offered on base).
  if (network !== 'base') settings[`TOKEN_USDT_${n}`] = chain.tokens.USDT;
  settings[`TOKEN_USDC_${n}`] = chain.tokens.USDC;
  // Prices in fiat read this chain's mock feeds (docs/rates.md).
  if (chain.feeds) Object.assign(settings, { RATES_NETWORK: network }, rateFeedSettings(chain.feeds));
  return settings;
}

/** The ERC-20 ABI fragment the chain tools and tests send with. */
export const ERC20_TRANSFER_ABI = [
  {
    type: 'function',
    name: 'transfer',
    stateMutability: 'nonpayable',
    inputs: [
      { name: 'to', type: 'address' },
      { name: 'value', type: 'uint256' },
    ],
    outputs: [{ type: 'bool' }],
  },
] as const;

/** Pays `units` of `token` (or native ETH when null) to `to` from a dev account; resolves with the tx hash once mined. */
export async function sendPayment(
  rpcUrl: string,
  payment: { token: Address | null; to: Address; units: bigint },
  from: { privateKey: Hex } = DEV_ACCOUNTS[0],
): Promise<Hex> {
  const account = privateKeyToAccount(from.privateKey);
  const wallet = createWalletClient({ account, transport: http(rpcUrl) });
  const hash = payment.token
    ? await wallet.writeContract({
        address: payment.token,
        abi: ERC20_TRANSFER_ABI,
        functionName: 'transfer',
        args: [payment.to, payment.units],
        chain: null,
      })
    : await wallet.sendTransaction({ to: payment.to, value: payment.units, chain: null });
  return hash;
}
