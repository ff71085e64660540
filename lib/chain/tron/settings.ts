import { env } from '../../env';

/**
 * Tron's own settings beside lib/chain/networks.ts (which holds RPC_URL_TRON and TOKEN_USDT_TRON for every
 * network): the chain id, the finality fallback and the provider headers.
 */

/** eth_chainId of TRON mainnet (the last 4 bytes of its genesis block id); Nile 0xcd8690dc, Shasta 0x94a9059e. */
export const TRON_MAINNET_CHAIN_ID = 0x2b6653dc;

/**
 * Confirmations (the block of the payment counting as the first) that make a payment final where the node has no
 * `finalized` tag: 19 blocks ≈ 57 s, the depth at which TRON solidifies a block (19 of its 27 producers built on it).
 */
export const DEFAULT_TRON_CONFIRMATIONS = 19;

export function tronChainId(): number {
  const value = env().CHAIN_ID_TRON;
  return value ? Number(value) : TRON_MAINNET_CHAIN_ID;
}

export function tronConfirmations(): number {
  const value = env().CONFIRMATIONS_TRON;
  return Math.max(1, value ? Number(value) : DEFAULT_TRON_CONFIRMATIONS);
}

/** Whether CONFIRMATIONS_TRON was set: then it holds even where the node's `finalized` block is shallower. */
export function tronConfirmationsSet(): boolean {
  return Boolean(env().CONFIRMATIONS_TRON);
}

/** RPC_HEADERS_TRON as headers (`Name: value; Name: value`). The values are secrets: never log them. */
export function tronRpcHeaders(): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const pair of (env().RPC_HEADERS_TRON ?? '').split(';')) {
    const at = pair.indexOf(':');
    if (at <= 0) continue;
    headers[pair.slice(0, at).trim()] = pair.slice(at + 1).trim();
  }
  return headers;
}
