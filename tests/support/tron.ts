import { createPublicClient, createTestClient, http } from 'viem';
import { db } from '@/lib/db';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import type { TestLane } from '../setup/global';
import { tronToBase58 } from '@/lib/chain/tron/address';
import { TronRpc } from '@/lib/chain/tron/rpc';
import { TronWatcher, type TronWatcherOptions } from '@/lib/chain/tron/tron-watcher';
import { startTronFacade, TRON_RULES, type TronFacade } from '../../scripts/chain/tron-facade';
import { mineTron, payTronUri } from '../../scripts/chain/tron-local';

/** This lane's local chain and the TRON façade over it that the lane's server watches as `tron`. */
export const chain: TestLane['TEST_CHAIN'] = JSON.parse(process.env.TEST_CHAIN ?? 'null');
export const tron: TestLane['TEST_TRON'] = JSON.parse(process.env.TEST_TRON ?? 'null');
if (!chain || !tron) throw new Error('TEST_CHAIN / TEST_TRON are not set: run through vitest (tests/setup/env.ts)');
export const testClient = createTestClient({ mode: 'hardhat', transport: http(chain.rpcUrl) });

/** A base58 Tron address nobody else in the suite uses. */
export function freshTronAddress(): string {
  return tronToBase58(privateKeyToAccount(generatePrivateKey()).address);
}

/** A façade of this test file's own over the suite's node, so its calls and refusals can be inspected. */
export async function ownFacade(): Promise<TronFacade> {
  return startTronFacade({ upstreamUrl: chain.rpcUrl });
}

export function tronWatcher(facade: TronFacade, options: TronWatcherOptions = {}) {
  return new TronWatcher({ rpc: new TronRpc({ urls: [facade.rpcUrl], network: 'tron-test' }), ...options });
}

/** Pays a Tron payment_uri (its own block); returns TRON's txid (no 0x). */
export async function payTron(
  uri: string,
  change: { units?: (units: bigint) => bigint; token?: string } = {},
): Promise<string> {
  return (await payTronUri(chain.rpcUrl, uri, change)).txid;
}

/** Mines the blocks that make a payment mined at the head final: the façade's finalized block is head − 19. */
export async function mineToFinality() {
  await mineTron(chain.rpcUrl, TRON_RULES.finalizedDepth);
}

/**
 * After mining thousands of empty blocks: the EVM watcher of later test files in this lane reads every block, so
 * its cursor (if any) skips them — they hold transfers to Tron test wallets only, none to an ethereum wallet.
 */
export async function skipEvmCursorToHead() {
  const head = await createPublicClient({ transport: http(chain.rpcUrl) }).getBlock({ blockTag: 'latest' });
  await db().chainCursor.updateMany({
    where: { network: 'ethereum' },
    data: { lastBlock: head.number, lastBlockHash: head.hash },
  });
}
