import { HDKey } from '@scure/bip32';
import { randomBytes } from 'node:crypto';
import { BitcoinWatcher, type BitcoinWatcherOptions } from '@/lib/chain/bitcoin/bitcoin-watcher';
import { mineBlocks, parseBip21, reorgBlocks, sendBitcoin } from '../../scripts/chain/bitcoin-node';
import type { TestBitcoin } from '../setup/global';

/** This worker's Bitcoin regtest node (its lane, tests/setup/global.ts), watched as `bitcoin` by the lane's server. */
export const bitcoin: TestBitcoin = JSON.parse(process.env.TEST_BITCOIN ?? 'null');
if (!bitcoin) throw new Error('TEST_BITCOIN is not set: run through vitest (tests/setup/env.ts)');

/** A fresh merchant wallet (a vpub nobody else in the suite uses: its addresses belong to this test only). */
export function freshVpub(): string {
  return HDKey.fromMasterSeed(randomBytes(32), { private: 0x045f18bc, public: 0x045f1cf6 }).derive("m/84'/1'/0'")
    .publicExtendedKey;
}

/** Pays a BIP-21 payment_uri (or another amount to its address) from the funded key; the tx stays in the mempool. */
export function payBitcoin(uri: string, amount?: string): Promise<string> {
  const output = parseBip21(uri);
  return sendBitcoin(bitcoin.rpcUrl, [{ address: output.address, amount: amount ?? output.amount }]);
}

export const mine = (blocks: number) => mineBlocks(bitcoin.rpcUrl, blocks);
export const reorg = (blocks: number) => reorgBlocks(bitcoin.rpcUrl, blocks);

export function bitcoinWatcher(options: BitcoinWatcherOptions = {}) {
  return new BitcoinWatcher({ initialLookback: 0, ...options });
}
