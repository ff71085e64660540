import type { BTC_NETWORK } from '@scure/btc-signer/utils.js';
import { env } from '../../env';

/**
 * Which Bitcoin chain this deployment settles on (BITCOIN_CHAIN, docs/settlement.md): it decides how addresses
 * are encoded and which extended public keys a wallet may hold (mainnet keys on `main`, testnet keys on `test`
 * and `regtest`, as every wallet exports them).
 */
export const BITCOIN_CHAINS = ['main', 'test', 'regtest'] as const;
export type BitcoinChain = (typeof BITCOIN_CHAINS)[number];

/** Address encodings, as Bitcoin Core names them (regtest is `bcrt`; bcoin's own `rb` is never used here). */
export const ADDRESS_ENCODING: Record<BitcoinChain, BTC_NETWORK> = {
  main: { bech32: 'bc', pubKeyHash: 0x00, scriptHash: 0x05, wif: 0x80 },
  test: { bech32: 'tb', pubKeyHash: 0x6f, scriptHash: 0xc4, wif: 0xef },
  regtest: { bech32: 'bcrt', pubKeyHash: 0x6f, scriptHash: 0xc4, wif: 0xef },
};

export function bitcoinChain(): BitcoinChain {
  return env().BITCOIN_CHAIN;
}

/** The chain Bitcoin Core's getblockchaininfo reports for each setting (`chain` field). */
export const CORE_CHAIN_NAME: Record<BitcoinChain, string> = { main: 'main', test: 'test', regtest: 'regtest' };

/** Confirmations before a Bitcoin payment counts (CONFIRMATIONS_BITCOIN, default 2, as BTCPay Server's "medium"). */
export const DEFAULT_BITCOIN_CONFIRMATIONS = 2;

export function bitcoinConfirmations(): number {
  const value = env().CONFIRMATIONS_BITCOIN;
  return value ? Math.max(1, Number(value)) : DEFAULT_BITCOIN_CONFIRMATIONS;
}
