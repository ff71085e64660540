import { createPublicClient, createWalletClient, http, type Abi, type Address } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { ensureMockAggregatorFixture } from '../../scripts/chain/compile';
import { DEV_ACCOUNTS } from '../../scripts/chain/local-chain';
import { chain } from '../support/chain';

/** Writes a feed's latest round as-is (a stale, zero, negative or carried-over round). */
export async function setRound(
  feed: Address,
  round: { roundId: bigint; answer: bigint; startedAt: bigint; updatedAt: bigint; answeredInRound: bigint },
): Promise<void> {
  const { abi } = ensureMockAggregatorFixture();
  const wallet = createWalletClient({
    account: privateKeyToAccount(DEV_ACCOUNTS[0].privateKey),
    transport: http(chain.rpcUrl),
  });
  const client = createPublicClient({ transport: http(chain.rpcUrl) });
  const hash = await wallet.writeContract({
    address: feed,
    abi: abi as Abi,
    functionName: 'setRoundData',
    args: [round.roundId, round.answer, round.startedAt, round.updatedAt, round.answeredInRound],
    chain: null,
  });
  await client.waitForTransactionReceipt({ hash, pollingInterval: 50 });
}

export const nowSeconds = () => BigInt(Math.floor(Date.now() / 1000));
