// The local Tron chain: the local EVM node (scripts/chain/local-chain.ts) behind the TRON JSON-RPC façade
// (scripts/chain/tron-facade.ts), its mock USDT shown as a TRC-20 contract in base58. Used by
// `npm run chain -- --network tron`, the vitest global setup, the Playwright flow and the benchmark.
import { createPublicClient, getAddress, http, type Hex } from 'viem';
import { tronToBase58, tronToHex } from '../../lib/chain/tron/address';
import { parseTronPaymentUri } from '../../lib/chain/tron/payment-uri';
import { DEV_ACCOUNTS, sendPayment, type LocalChain } from './local-chain';
import { startTronFacade, TRON_RULES, type TronFacade } from './tron-facade';

export interface LocalTron {
  facade: TronFacade;
  /** TRON JSON-RPC (the façade's /jsonrpc). */
  rpcUrl: string;
  /** The EVM node behind it (tools only). */
  evmUrl: string;
  chainId: number;
  /** The mock USDT, base58. */
  tokens: { USDT: string };
  funded: { address: string; privateKey: Hex };
}

/** Starts the façade over a running local chain (its mock USDT is the TRC-20 USDT). */
export async function startLocalTron(
  chain: Pick<LocalChain, 'rpcUrl' | 'chainId' | 'tokens'>,
  options: { port?: number; host?: string } = {},
): Promise<LocalTron> {
  const facade = await startTronFacade({ upstreamUrl: chain.rpcUrl, port: options.port, host: options.host });
  return {
    facade,
    rpcUrl: facade.rpcUrl,
    evmUrl: facade.evmUrl,
    chainId: chain.chainId,
    tokens: { USDT: tronToBase58(chain.tokens.USDT) },
    funded: { address: tronToBase58(DEV_ACCOUNTS[0].address), privateKey: DEV_ACCOUNTS[0].privateKey },
  };
}

/** The app settings that point the Tron watcher at the local façade (addresses in base58). */
export function tronChainSettings(tron: Pick<LocalTron, 'rpcUrl' | 'chainId' | 'tokens'>): Record<string, string> {
  return { RPC_URL_TRON: tron.rpcUrl, CHAIN_ID_TRON: String(tron.chainId), TOKEN_USDT_TRON: tron.tokens.USDT };
}

/** The EVM node behind a façade's /jsonrpc URL (its /evm endpoint). */
export function evmUrlOf(tronRpcUrl: string): string {
  const url = new URL(tronRpcUrl);
  url.pathname = '/evm';
  return url.toString();
}

/**
 * Pays a Tron payment_uri from a dev account through the EVM node (TRON's JSON-RPC has no broadcast; a real
 * wallet signs a TRON TriggerSmartContract and broadcasts it over the HTTP API). `token`/`units` override the
 * URI's (tests: look-alike contracts, wrong amounts). Resolves once mined, with TRON's txid (no 0x).
 */
export async function payTronUri(
  evmUrl: string,
  uri: string,
  change: { units?: (units: bigint) => bigint; token?: string; from?: { privateKey: Hex } } = {},
): Promise<{ txid: string; blockNumber: bigint; status: string }> {
  const parsed = parseTronPaymentUri(uri);
  const hash = await sendPayment(
    evmUrl,
    {
      token: getAddress(tronToHex(change.token ?? parsed.token)),
      to: getAddress(tronToHex(parsed.to)),
      units: change.units ? change.units(parsed.units) : parsed.units,
    },
    change.from ?? DEV_ACCOUNTS[0],
  );
  const receipt = await createPublicClient({ transport: http(evmUrl) }).waitForTransactionReceipt({
    hash,
    pollingInterval: 50,
  });
  return { txid: hash.slice(2), blockNumber: receipt.blockNumber, status: receipt.status };
}

/**
 * Mines `blocks` blocks at once (hardhat_mine), all at the current time: a block time ahead of the clock would
 * make the app see payments after their invoices expired.
 */
export async function mineTron(evmUrl: string, blocks: number): Promise<void> {
  const response = await fetch(evmUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'hardhat_mine',
      params: [`0x${blocks.toString(16)}`, '0x0'],
    }),
  });
  const body = (await response.json()) as { error?: { message: string } };
  if (body.error) throw new Error(body.error.message);
}

export { TRON_RULES };
