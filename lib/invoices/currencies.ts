/**
 * Supported currencies, their decimals, and the networks each can be paid on.
 * The invoice schema, the wallet form and the OpenAPI document read this table.
 */
export const NETWORKS = ['ethereum', 'polygon', 'base', 'tron', 'bitcoin'] as const;
export type Network = (typeof NETWORKS)[number];

export type NetworkFamily = 'evm' | 'tron' | 'bitcoin';

export const NETWORK_FAMILY: Record<Network, NetworkFamily> = {
  ethereum: 'evm',
  polygon: 'evm',
  base: 'evm',
  tron: 'tron',
  bitcoin: 'bitcoin',
};

export const CURRENCIES = ['USDT', 'USDC', 'ETH', 'BTC'] as const;
export type Currency = (typeof CURRENCIES)[number];

export const CURRENCY_RULES: Record<Currency, { decimals: number; networks: readonly Network[] }> = {
  USDT: { decimals: 6, networks: ['ethereum', 'polygon', 'tron'] },
  USDC: { decimals: 6, networks: ['ethereum', 'polygon', 'base'] },
  ETH: { decimals: 18, networks: ['ethereum', 'base'] },
  BTC: { decimals: 8, networks: ['bitcoin'] },
};

export function isSupportedPair(currency: Currency, network: Network): boolean {
  return CURRENCY_RULES[currency].networks.includes(network);
}

export function supportedPairsText(): string {
  return CURRENCIES.map((c) => `${c} on ${CURRENCY_RULES[c].networks.join('/')}`).join('; ');
}
