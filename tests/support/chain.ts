import { createTestClient, getAddress, http } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { inject } from 'vitest';
import { createPublicClient } from 'viem';
import { parseEvmPaymentUri } from '@/lib/chain/payment-uri';
import { EvmWatcher, type EvmWatcherOptions } from '@/lib/chain/evm/evm-watcher';
import { sendPayment } from '../../scripts/chain/local-chain';

/** The suite's local chain (tests/setup/global.ts), watched as `ethereum` by the server under test. */
export const chain = inject('TEST_CHAIN');

export const testClient = createTestClient({ mode: 'hardhat', transport: http(chain.rpcUrl) });
export const publicClient = createPublicClient({ transport: http(chain.rpcUrl) });

/** A wallet address nobody else in the suite uses (transfers to it belong to this test only). */
export function freshAddress(): string {
  return privateKeyToAccount(generatePrivateKey()).address;
}

/** Pays a payment_uri from the funded dev account (its own block: the node automines); returns the tx hash. */
export async function pay(uri: string, change: { units?: (units: bigint) => bigint; token?: `0x${string}` } = {}) {
  const parsed = parseEvmPaymentUri(uri);
  const hash = await sendPayment(chain.rpcUrl, {
    token: change.token ?? (parsed.token ? getAddress(parsed.token) : null),
    to: getAddress(parsed.to),
    units: change.units ? change.units(parsed.units) : parsed.units,
  });
  await publicClient.waitForTransactionReceipt({ hash, pollingInterval: 50 });
  return hash;
}

/** Mines the blocks that bring a payment mined at the head to the confirmations the server requires. */
export async function mineToConfirm() {
  await testClient.mine({ blocks: chain.confirmations - 1 });
}

export function watcher(options: EvmWatcherOptions = {}) {
  return new EvmWatcher('ethereum', options);
}
