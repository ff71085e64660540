import type { PublicClient } from 'viem';

/** The two AggregatorV3Interface reads the app makes (Chainlink's ABI). */
export const AGGREGATOR_ABI = [
  { type: 'function', name: 'decimals', stateMutability: 'view', inputs: [], outputs: [{ type: 'uint8' }] },
  {
    type: 'function',
    name: 'latestRoundData',
    stateMutability: 'view',
    inputs: [],
    outputs: [
      { name: 'roundId', type: 'uint80' },
      { name: 'answer', type: 'int256' },
      { name: 'startedAt', type: 'uint256' },
      { name: 'updatedAt', type: 'uint256' },
      { name: 'answeredInRound', type: 'uint80' },
    ],
  },
] as const;

/** A feed's latest round, as read (not yet checked). */
export interface RoundData {
  roundId: bigint;
  answer: bigint;
  startedAt: bigint;
  updatedAt: bigint;
  answeredInRound: bigint;
  decimals: number;
}

/** Reads decimals (once per address: it never changes) and the latest round. */
export async function readRound(
  client: PublicClient,
  address: `0x${string}`,
  decimalsCache: Map<string, number>,
): Promise<RoundData> {
  const key = address.toLowerCase();
  const [decimals, round] = await Promise.all([
    decimalsCache.get(key) ?? client.readContract({ address, abi: AGGREGATOR_ABI, functionName: 'decimals' }),
    client.readContract({ address, abi: AGGREGATOR_ABI, functionName: 'latestRoundData' }),
  ]);
  decimalsCache.set(key, decimals);
  const [roundId, answer, startedAt, updatedAt, answeredInRound] = round;
  return { roundId, answer, startedAt, updatedAt, answeredInRound, decimals };
}

/** Allowed clock difference between the feed's updatedAt and ours before a round "from the future" is refused. */
const FUTURE_SKEW_SECONDS = 300n;
const MAX_FEED_DECIMALS = 36;

/**
 * Why a round cannot be used, or null when it can (docs/rates.md): a non-positive answer, an incomplete round
 * (updatedAt 0), a round answered in an earlier round (answeredInRound < roundId: carried over, not fresh), an
 * updatedAt older than maxAgeSeconds or too far in the future, or implausible decimals.
 */
export function roundProblem(round: RoundData, nowSeconds: bigint, maxAgeSeconds: number): string | null {
  if (round.decimals > MAX_FEED_DECIMALS) return `reports ${round.decimals} decimals`;
  if (round.answer <= 0n) return `answered ${round.answer} (not a positive price)`;
  if (round.updatedAt === 0n || round.roundId === 0n) return 'has no complete round';
  if (round.answeredInRound < round.roundId)
    return `round ${round.roundId} carries the answer of round ${round.answeredInRound}`;
  if (round.updatedAt > nowSeconds + FUTURE_SKEW_SECONDS) return 'was updated in the future (clock skew)';
  const age = nowSeconds - round.updatedAt;
  if (age > BigInt(maxAgeSeconds)) return `is stale: last updated ${age} s ago (at most ${maxAgeSeconds} s allowed)`;
  return null;
}
