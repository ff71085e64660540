import { describe, expect, it } from 'vitest';
import { env } from '../env';
import { chainId, DEFAULT_CHAIN_IDS, explorerTxUrl } from './networks';

const EVM_HASH = `0x${'ab'.repeat(32)}`;
const HASH = 'cd'.repeat(32);

describe('explorerTxUrl', () => {
  it('links a transaction of a real chain to its public explorer', () => {
    // The EVM link depends on CHAIN_ID_<NETWORK>: the test run may point ethereum at a local chain.
    const mainnet = chainId('polygon') === DEFAULT_CHAIN_IDS.polygon;
    expect(explorerTxUrl('polygon', EVM_HASH)).toBe(mainnet ? `https://polygonscan.com/tx/${EVM_HASH}` : null);
    // Bitcoin's link depends on BITCOIN_CHAIN: mempool.space knows mainnet transactions only.
    expect(explorerTxUrl('bitcoin', HASH)).toBe(
      env().BITCOIN_CHAIN === 'main' ? `https://mempool.space/tx/${HASH}` : null,
    );
  });

  it('gives no link for a simulated payment or a hash of the wrong shape', () => {
    for (const network of ['ethereum', 'polygon', 'base', 'tron', 'bitcoin'] as const) {
      expect(explorerTxUrl(network, 'sim_5f2b9c0e7d1a4b3c8e6f0a9d2c4b7e1f')).toBeNull();
      expect(explorerTxUrl(network, `${HASH}"><script>`)).toBeNull();
    }
    expect(explorerTxUrl('ethereum', HASH)).toBeNull(); // an EVM hash carries 0x
  });
});
