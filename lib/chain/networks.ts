import { env } from '../env';
import type { Currency, Network } from '../invoices/currencies';
import { tronToBase58 } from './tron/address';
import { TRON_MAINNET_CHAIN_ID, tronChainId } from './tron/settings';

/**
 * Per-network chain settings (docs/settlement.md): real-chain defaults, overridden by RPC_URL_<NETWORK>,
 * CHAIN_ID_<NETWORK>, CONFIRMATIONS_<NETWORK> and TOKEN_<CURRENCY>_<NETWORK> (lib/env.ts). A network is
 * watched when it has an RPC URL and a watcher exists for its family: the EVM networks, Tron and Bitcoin
 * (lib/chain/bitcoin).
 */
export const EVM_NETWORKS = ['ethereum', 'polygon', 'base'] as const;
export type EvmNetwork = (typeof EVM_NETWORKS)[number];

export function isEvmNetwork(network: string): network is EvmNetwork {
  return (EVM_NETWORKS as readonly string[]).includes(network);
}

/** The real chains' ids, the default of CHAIN_ID_<NETWORK>. */
export const DEFAULT_CHAIN_IDS: Record<EvmNetwork, number> = { ethereum: 1, polygon: 137, base: 8453 };

/**
 * Default confirmations before a payment counts (CONFIRMATIONS_<NETWORK>). Ethereum: 12 blocks (≈ 2.4 min, past
 * any reorg seen since the merge); Polygon PoS: 64 blocks (≈ 2 min; its reorgs used to reach dozens of blocks);
 * Base: 12 blocks (≈ 24 s; an L2 whose sequencer does not reorg in practice). Merchants can raise them.
 */
export const DEFAULT_CONFIRMATIONS: Record<EvmNetwork, number> = { ethereum: 12, polygon: 64, base: 12 };

/** The real token contracts, the default of TOKEN_<CURRENCY>_<NETWORK>. Tron's USDT is TRC-20 (base58). */
export const DEFAULT_TOKENS: Partial<Record<`${Currency}_${Network}`, string>> = {
  USDT_ethereum: '0xdAC17F958D2ee523a2206206994597C13D831ec7',
  USDC_ethereum: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48',
  USDT_polygon: '0xc2132D05D31c914a87C6611C10748AEb04B58e8F',
  USDC_polygon: '0x3c499c542cEF5E3811e1192ce70d8cC03d5c3359',
  USDC_base: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
  USDT_tron: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
};

type EnvKey = keyof ReturnType<typeof env>;
const upper = (value: string) => value.toUpperCase();

function setting(name: string): string | undefined {
  const value = env()[name as EnvKey];
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

/** The name of the setting that turns a network's watcher on (quoted in network_not_watched). */
export function rpcSettingName(network: Network): string {
  return `RPC_URL_${upper(network)}`;
}

/** The RPC URLs of a network, in fallback order; empty when the network is not watched. */
export function rpcUrls(network: Network): string[] {
  return (setting(rpcSettingName(network)) ?? '')
    .split(',')
    .map((url) => url.trim())
    .filter(Boolean);
}

/** Live invoices can be created on a network only while it is watched (docs/api.md, docs/settlement.md). */
export function isWatched(network: Network): boolean {
  return (isEvmNetwork(network) || network === 'tron' || network === 'bitcoin') && rpcUrls(network).length > 0;
}

export function chainId(network: EvmNetwork): number {
  const value = setting(`CHAIN_ID_${upper(network)}`);
  return value ? Number(value) : DEFAULT_CHAIN_IDS[network];
}

export function confirmations(network: EvmNetwork): number {
  const value = setting(`CONFIRMATIONS_${upper(network)}`);
  return value ? Number(value) : DEFAULT_CONFIRMATIONS[network];
}

/** The token contract of a currency on a network, or null for the native asset (ETH) and unsupported pairs. */
export function tokenAddress(currency: Currency, network: Network): string | null {
  if (currency === 'ETH' || currency === 'BTC') return null;
  const token = setting(`TOKEN_${currency}_${upper(network)}`) ?? DEFAULT_TOKENS[`${currency}_${network}`] ?? null;
  // Tron contracts may be configured as 41… hex; they are always shown and compared in base58.
  return token && network === 'tron' ? tronToBase58(token) : token;
}

/**
 * Each network's public block explorer, `{tx}` standing for the transaction hash: the portal and the payer's
 * receipt link a transaction there. EXPLORER_TX_URL_<NETWORK> replaces it (a testnet's or a self-hosted explorer).
 */
export const DEFAULT_EXPLORER_TX_URLS: Record<Network, string> = {
  ethereum: 'https://etherscan.io/tx/{tx}',
  polygon: 'https://polygonscan.com/tx/{tx}',
  base: 'https://basescan.org/tx/{tx}',
  tron: 'https://tronscan.org/#/transaction/{tx}',
  bitcoin: 'https://mempool.space/tx/{tx}',
};

/** Whether the network is configured as the real chain (so the default explorer knows its transactions). */
function isRealChain(network: Network): boolean {
  if (isEvmNetwork(network)) return chainId(network) === DEFAULT_CHAIN_IDS[network];
  if (network === 'tron') return tronChainId() === TRON_MAINNET_CHAIN_ID;
  return env().BITCOIN_CHAIN === 'main';
}

/**
 * A transaction's page on the network's explorer, or null when there is none to link to: an unknown network, a
 * hash of the wrong shape (0x + 64 hex on EVM; 64 hex, bare, on TRON and Bitcoin — never anything else in a URL),
 * or a deployment watching another chain than the real one (CHAIN_ID_<NETWORK> set to a local or test chain,
 * whose transactions the public explorer does not know) without EXPLORER_TX_URL_<NETWORK>. Simulated payments
 * (test invoices) are never passed here.
 */
export function explorerTxUrl(network: string, txHash: string): string | null {
  if (!(network in DEFAULT_EXPLORER_TX_URLS)) return null;
  const known = network as Network;
  let hash: string;
  if (isEvmNetwork(known)) {
    if (!/^0x[0-9a-fA-F]{64}$/.test(txHash)) return null;
    hash = txHash;
  } else {
    hash = txHash.replace(/^0x/, '').toLowerCase();
    if (!/^[0-9a-f]{64}$/.test(hash)) return null;
  }
  const template =
    setting(`EXPLORER_TX_URL_${upper(known)}`) ?? (isRealChain(known) ? DEFAULT_EXPLORER_TX_URLS[known] : null);
  return template ? template.replace('{tx}', hash) : null;
}
