// npm run chain [-- --port 8545] [--network ethereum|polygon|base] [--block-time 2] [--json]
//   starts a local EVM node with mock USDT and USDC (6 decimals) and prints the settings that point the app at it.
// npm run chain -- pay <payment_uri> [--rpc http://127.0.0.1:8545]
//   pays an invoice's payment_uri from the node's funded development account.
// npm run chain -- --network bitcoin [pay <uri> | mine N | reorg N]
//   a Bitcoin regtest node (scripts/chain/bitcoin-cli.ts).
// npm run chain -- set-rate ETH/USD 2500.12 [--rpc http://127.0.0.1:8545]
//   changes a mock price feed (scripts/chain/set-rate.ts).
// npm run chain -- --network tron [pay <payment_uri> | mine <N>]
//   the local Tron chain: the EVM node behind a TRON JSON-RPC façade (scripts/chain/tron-cli.ts).
// npm run chain -- receiver [--port 4443]
//   a local https webhook receiver for live endpoints (scripts/chain/receiver.ts).
import { createPublicClient, getAddress, http } from 'viem';
import { parseEvmPaymentUri } from '../../lib/chain/payment-uri';
import { closestName, parseCliArgs, UsageError } from '../cli-args';
import { CHAIN_USAGE, DEFAULT_EVM_RPC, payHint, setRateHint } from './hints';
import { chainSettings, LOCAL_CHAIN_ID, sendPayment, startLocalChain } from './local-chain';
import { startDevReceiver } from './receiver';
import { bitcoinCli } from './bitcoin-cli';
import { describeRateFeeds, setRateCommand } from './set-rate';
import { isTronInvocation, runTronCli } from './tron-cli';

const NETWORKS = ['ethereum', 'polygon', 'base'] as const;
type LocalNetwork = (typeof NETWORKS)[number];

function fail(message: string): never {
  console.error(`chain: ${message}`);
  process.exit(1);
}

async function start(argv: string[]) {
  const { values } = parseCliArgs(argv, {
    port: { type: 'string', default: '8545' },
    network: { type: 'string', default: 'ethereum' },
    'block-time': { type: 'string', default: '2' },
    json: { type: 'boolean', default: false },
  });
  const network = values.network as LocalNetwork;
  if (!NETWORKS.includes(network)) fail(`--network must be one of ${NETWORKS.join(', ')}`);
  const port = Number(values.port);
  const blockSeconds = Number(values['block-time']);
  if (!Number.isInteger(port) || port < 1 || port > 65535) fail('--port must be a TCP port');
  if (!(blockSeconds >= 0)) fail('--block-time must be a number of seconds (0: a block only per transaction)');

  const chain = await startLocalChain({ port, blockIntervalMs: blockSeconds * 1000 });
  const stop = () => void chain.stop().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);

  if (values.json) {
    console.log(
      JSON.stringify({
        rpc_url: chain.rpcUrl,
        chain_id: chain.chainId,
        network,
        tokens: chain.tokens,
        rate_feeds: chain.feeds,
        funded_account: { address: chain.funded.address, private_key: chain.funded.privateKey },
      }),
    );
  } else {
    const settings = { ...chainSettings(chain, network), [`CONFIRMATIONS_${network.toUpperCase()}`]: '3' };
    console.log(
      `Local ${network} chain (chain id ${chain.chainId}) on ${chain.rpcUrl}, a block every ${blockSeconds || '—'} s and one per transaction.`,
    );
    console.log(
      `Mock USDT ${chain.tokens.USDT} and USDC ${chain.tokens.USDC} (6 decimals), minted to ${chain.funded.address}.`,
    );
    console.log(`Mock Chainlink price feeds (8 decimals; change one with ${setRateHint(chain.rpcUrl)}):`);
    console.log(describeRateFeeds(chain.feeds).join('\n'));
    console.log('\nStart the app with these settings (another terminal):\n');
    console.log(
      `  ${Object.entries(settings)
        .map(([k, v]) => `${k}=${v}`)
        .join(' \\\n  ')} \\\n  npm start`,
    );
    console.log(`\nThen pay a live invoice:  ${payHint('evm', chain.rpcUrl)}`);
    console.log(
      `Funded development account (publicly known key, local use only): ${chain.funded.address} ${chain.funded.privateKey}`,
    );
    console.log('\nCtrl-C stops the chain (its state is not kept).');
  }
}

async function pay(argv: string[]) {
  const { values, positionals } = parseCliArgs(
    argv,
    { rpc: { type: 'string', default: DEFAULT_EVM_RPC } },
    { allowPositionals: true },
  );
  const rpc = String(values.rpc);
  const uri = positionals[0];
  if (!uri) fail('usage: npm run chain -- pay <payment_uri> [--rpc URL]');
  let parsed: ReturnType<typeof parseEvmPaymentUri>;
  try {
    parsed = parseEvmPaymentUri(uri);
  } catch (error) {
    fail((error as Error).message);
  }
  const client = createPublicClient({ transport: http(rpc) });
  const reported = await client
    .getChainId()
    .catch(() =>
      fail(`no node answers on ${rpc}: start it with npm run chain (on another port: --rpc http://127.0.0.1:<port>)`),
    );
  if (reported !== parsed.chainId) {
    fail(
      `the URI is for chain ${parsed.chainId} but ${rpc} is chain ${reported} (start the app with CHAIN_ID_<NETWORK>=${LOCAL_CHAIN_ID})`,
    );
  }
  const hash = await sendPayment(rpc, {
    token: parsed.token ? getAddress(parsed.token) : null,
    to: getAddress(parsed.to),
    units: parsed.units,
  });
  const receipt = await client.waitForTransactionReceipt({ hash, pollingInterval: 100 });
  console.log(`paid: tx ${hash} in block ${receipt.blockNumber} (${receipt.status})`);
}

async function receiver(argv: string[]) {
  const { values } = parseCliArgs(argv, { port: { type: 'string', default: '4443' } });
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 1 || port > 65535) fail('--port must be a TCP port');
  const server = await startDevReceiver(port);
  const stop = () => server.close(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

async function main() {
  const argv = process.argv.slice(2);
  const [command, ...rest] = argv;
  if (command === '--help' || command === '-h' || command === 'help') {
    console.log(CHAIN_USAGE);
    return;
  }
  // Bitcoin is its own tool (a bcoin regtest node): scripts/chain/bitcoin-cli.ts.
  if (argv.some((arg, i) => arg === '--network=bitcoin' || (arg === '--network' && argv[i + 1] === 'bitcoin')))
    return bitcoinCli(argv);
  if (
    command !== undefined &&
    !command.startsWith('-') &&
    !['pay', 'receiver', 'set-rate'].includes(command) &&
    !isTronInvocation(argv)
  ) {
    const suggestion = closestName(command, ['pay', 'receiver', 'set-rate']);
    throw new UsageError(`unknown command ${command}${suggestion ? `: did you mean ${suggestion}?` : ''}`);
  }
  if (isTronInvocation(argv)) await runTronCli(argv);
  else if (command === 'pay') await pay(rest);
  else if (command === 'receiver') await receiver(rest);
  else if (command === 'set-rate') await setRateCommand(rest, fail);
  else await start(process.argv.slice(2));
}

main().catch((error: unknown) => {
  if (error instanceof UsageError) {
    console.error(`chain: ${error.message}\nrun \`npm run chain -- --help\` for the commands and their options`);
    process.exit(2);
  }
  fail(error instanceof Error ? error.message : String(error));
});
