import { createPublicClient, createTestClient, createWalletClient, getAddress, http, type Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import type { TestChain } from '../setup/global';
import { parseEvmPaymentUri } from '@/lib/chain/payment-uri';
import { EvmWatcher, type EvmWatcherOptions } from '@/lib/chain/evm/evm-watcher';
import { DEV_ACCOUNTS, ERC20_TRANSFER_ABI, sendPayment } from '../../scripts/chain/local-chain';

/** This worker's local chain (its lane, tests/setup/global.ts), watched as `ethereum` by the lane's server. */
export const chain: TestChain = JSON.parse(process.env.TEST_CHAIN ?? 'null');
if (!chain) throw new Error('TEST_CHAIN is not set: run through vitest (tests/setup/env.ts)');

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

/**
 * Pays several payment_uris in ONE block (automine paused, explicit nonces, then one block mined); `units`
 * overrides the amount of each. Returns the tx hashes in order.
 */
export async function payInOneBlock(uris: string[], units?: (units: bigint, index: number) => bigint): Promise<Hex[]> {
  const account = privateKeyToAccount(DEV_ACCOUNTS[0].privateKey);
  const wallet = createWalletClient({ account, transport: http(chain.rpcUrl) });
  let nonce = await publicClient.getTransactionCount({ address: account.address, blockTag: 'pending' });
  const hashes: Hex[] = [];
  await testClient.setAutomine(false);
  try {
    for (const [index, uri] of uris.entries()) {
      const parsed = parseEvmPaymentUri(uri);
      const value = units ? units(parsed.units, index) : parsed.units;
      const to = getAddress(parsed.to);
      hashes.push(
        parsed.token
          ? await wallet.writeContract({
              address: getAddress(parsed.token),
              abi: ERC20_TRANSFER_ABI,
              functionName: 'transfer',
              args: [to, value],
              nonce: nonce++,
              gas: 100_000n,
              chain: null,
            })
          : await wallet.sendTransaction({ to, value, nonce: nonce++, gas: 21_000n, chain: null }),
      );
    }
    await testClient.mine({ blocks: 1 });
  } finally {
    await testClient.setAutomine(true);
  }
  for (const hash of hashes) await publicClient.waitForTransactionReceipt({ hash, pollingInterval: 50 });
  return hashes;
}

/** Mines the blocks that bring a payment mined at the head to the confirmations the server requires. */
export async function mineToConfirm() {
  await testClient.mine({ blocks: chain.confirmations - 1 });
}

export function watcher(options: EvmWatcherOptions = {}) {
  return new EvmWatcher('ethereum', options);
}
