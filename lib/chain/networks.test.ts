import { describe, expect, it } from 'vitest';
import { env } from '../env';
import { NETWORKS } from '../invoices/currencies';
import { chainId, DEFAULT_CHAIN_IDS, DEFAULT_EXPLORER_TX_URLS, explorerTxUrl, isEvmNetwork } from './networks';

const HASH = `0x${'ab'.repeat(32)}`;

describe('explorerTxUrl', () => {
  it('has a template with {tx} for every network', () => {
    for (const network of NETWORKS)
      expect(DEFAULT_EXPLORER_TX_URLS[network], network).toMatch(/^https:\/\/[^{}]+\{tx\}$/);
  });

  it('links the real chains only; a local chain id gets no public explorer link', () => {
    for (const network of NETWORKS.filter(isEvmNetwork)) {
      const real = chainId(network) === DEFAULT_CHAIN_IDS[network];
      expect(explorerTxUrl(network, HASH), network).toBe(
        real ? DEFAULT_EXPLORER_TX_URLS[network].replace('{tx}', HASH) : null,
      );
    }
    // Bitcoin's explorer takes the bare hash.
    expect(explorerTxUrl('bitcoin', HASH)).toBe(
      env().BITCOIN_CHAIN === 'main' ? `https://mempool.space/tx/${'ab'.repeat(32)}` : null,
    );
  });

  it('never puts anything but a plain hash in a URL, and knows no other network', () => {
    for (const bad of ['', 'abc', `${HASH}/../x`, `${HASH}?q=1`, `javascript:${HASH}`])
      expect(explorerTxUrl('bitcoin', bad), bad).toBeNull();
    expect(explorerTxUrl('solana', HASH)).toBeNull();
  });
});
