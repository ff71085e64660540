// npm run chain -- set-rate <PAIR> <price> [--rpc http://127.0.0.1:8545]
//   starts a new round on the local chain's mock feed of PAIR (ETH/USD, BTC/USD, USDT/USD, USDC/USD, EUR/USD).
import { parseCliArgs } from '../cli-args';
import { FEEDS } from '../../lib/rates/feeds';
import {
  findRateFeed,
  isFeed,
  MOCK_FEED_ANSWERS,
  MOCK_FEED_DECIMALS,
  setFeedAnswer,
  type RateFeeds,
} from './rate-feeds';

const USAGE = `usage: npm run chain -- set-rate <${FEEDS.join('|')}> <price, e.g. 2500.12> [--rpc URL]`;

export async function setRateCommand(argv: string[], fail: (message: string) => never): Promise<void> {
  const { values: flags, positionals } = parseCliArgs(
    argv,
    { rpc: { type: 'string', default: 'http://127.0.0.1:8545' } },
    { allowPositionals: true },
  );
  const values = { rpc: String(flags.rpc) };
  const [pair, price] = positionals;
  if (!pair || !price || positionals.length !== 2) fail(USAGE);
  const feed = pair.toUpperCase();
  if (!isFeed(feed)) fail(`unknown pair ${pair}: one of ${FEEDS.join(', ')}`);
  if (!/^\d+(\.\d{1,8})?$/.test(price) || !/[1-9]/.test(price)) {
    fail(`the price must be a positive decimal with at most ${MOCK_FEED_DECIMALS} decimals, e.g. 2500.12`);
  }
  const address = await findRateFeed(values.rpc, feed).catch(() =>
    fail(`no node answers on ${values.rpc}: start it with npm run chain`),
  );
  if (!address) fail(`no mock ${feed} feed on ${values.rpc}: is it a chain started with npm run chain?`);
  const block = await setFeedAnswer(values.rpc, address, price);
  console.log(
    `${feed} = ${price} (feed ${address}, block ${block}). The app's cached rate follows within 30 s; existing invoices keep their locked rate.`,
  );
}

/** The lines `npm run chain` prints about the feeds. */
export function describeRateFeeds(feeds: RateFeeds): string[] {
  return FEEDS.map((feed) => `  ${feed.padEnd(9)} ${MOCK_FEED_ANSWERS[feed].padStart(10)}  ${feeds[feed]}`);
}
