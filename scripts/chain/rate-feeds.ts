// Chainlink-compatible mock price feeds for the local chain (contracts/MockAggregator.sol, 8 decimals like
// Chainlink's USD feeds): deployed by startLocalChain, printed by `npm run chain`, changed with
// `npm run chain -- set-rate ETH/USD 2500.12`.
import {
  createPublicClient,
  createWalletClient,
  getAddress,
  getContractAddress,
  http,
  type Abi,
  type Address,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { parseDecimal, pow10 } from '../../lib/rates/decimal';
import { FEEDS, feedSettingName, type Feed } from '../../lib/rates/feeds';
import { TEST_FIXED_ANSWERS } from '../../lib/rates/feed-source';
import { ensureMockAggregatorFixture } from './compile';

export const MOCK_FEED_DECIMALS = 8;
/** The local feeds start at the documented test rates (lib/rates/feed-source.ts). */
export const MOCK_FEED_ANSWERS: Record<Feed, string> = TEST_FIXED_ANSWERS;

export type RateFeeds = Record<Feed, Address>;

const DEPLOYER = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80' as const; // hardhat account 0

/** "2500.12" → 250012000000n at 8 decimals; refuses more decimals than the feed has, signs and exponents. */
export function feedAnswer(value: string): bigint {
  const { units, scale } = parseDecimal(value);
  if (scale > MOCK_FEED_DECIMALS) throw new RangeError(`at most ${MOCK_FEED_DECIMALS} decimals`);
  return units * pow10(MOCK_FEED_DECIMALS - scale);
}

function clients(rpcUrl: string) {
  const account = privateKeyToAccount(DEPLOYER);
  return {
    wallet: createWalletClient({ account, transport: http(rpcUrl) }),
    client: createPublicClient({ transport: http(rpcUrl) }),
  };
}

/** Deploys one mock feed per pair from account 0, at the documented answers; resolves once all are mined. */
export async function deployRateFeeds(rpcUrl: string): Promise<RateFeeds> {
  const fixture = ensureMockAggregatorFixture();
  const { wallet, client } = clients(rpcUrl);
  const feeds = {} as RateFeeds;
  for (const feed of FEEDS) {
    const hash = await wallet.deployContract({
      abi: fixture.abi as Abi,
      bytecode: fixture.bytecode,
      args: [MOCK_FEED_DECIMALS, `${feed.replace('/', ' / ')} (local mock)`, feedAnswer(MOCK_FEED_ANSWERS[feed])],
      chain: null,
    });
    const receipt = await client.waitForTransactionReceipt({ hash, pollingInterval: 50 });
    if (!receipt.contractAddress) throw new Error(`deploying the ${feed} feed failed`);
    feeds[feed] = getAddress(receipt.contractAddress);
  }
  return feeds;
}

/** RATE_FEED_<BASE>_<QUOTE> settings pointing the app at these feeds. */
export function rateFeedSettings(feeds: RateFeeds): Record<string, string> {
  return Object.fromEntries(FEEDS.map((feed) => [feedSettingName(feed), feeds[feed]]));
}

const SET_ANSWER_ABI = [
  {
    type: 'function',
    name: 'setAnswer',
    stateMutability: 'nonpayable',
    inputs: [{ name: 'answer', type: 'int256' }],
    outputs: [],
  },
] as const;

/** Starts a new round at `answer` (a decimal, e.g. "2500.12") on a mock feed; resolves once mined. */
export async function setFeedAnswer(rpcUrl: string, address: Address, answer: string): Promise<bigint> {
  const { wallet, client } = clients(rpcUrl);
  const hash = await wallet.writeContract({
    address,
    abi: SET_ANSWER_ABI,
    functionName: 'setAnswer',
    args: [feedAnswer(answer)],
    chain: null,
  });
  const receipt = await client.waitForTransactionReceipt({ hash, pollingInterval: 50 });
  if (receipt.status !== 'success') throw new Error(`setAnswer reverted (is ${address} a mock feed?)`);
  return receipt.blockNumber;
}

export function isFeed(value: string): value is Feed {
  return (FEEDS as readonly string[]).includes(value);
}

const DESCRIPTION_ABI = [
  { type: 'function', name: 'description', stateMutability: 'view', inputs: [], outputs: [{ type: 'string' }] },
] as const;
const SCAN_LIMIT = 64;

/**
 * Finds the mock feed of `feed` on a running local chain: the contracts account 0 deployed (addresses follow
 * from its nonces), the one whose description names the pair. No state file to keep in step with the chain.
 */
export async function findRateFeed(rpcUrl: string, feed: Feed): Promise<Address | null> {
  const { client, wallet } = clients(rpcUrl);
  const deployer = wallet.account.address;
  const nonce = await client.getTransactionCount({ address: deployer });
  const wanted = `${feed.replace('/', ' / ')} (local mock)`;
  for (let i = 0; i < Math.min(nonce, SCAN_LIMIT); i++) {
    const address = getContractAddress({ from: deployer, nonce: BigInt(i) });
    const description = await client
      .readContract({ address, abi: DESCRIPTION_ABI, functionName: 'description' })
      .catch(() => null);
    if (description === wanted) return address;
  }
  return null;
}
