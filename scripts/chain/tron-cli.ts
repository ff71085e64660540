// npm run chain -- --network tron [--port 9545] [--block-time 3] [--json]
//   starts the local EVM node behind the TRON JSON-RPC façade and prints the settings (addresses in base58).
// npm run chain -- --network tron pay <payment_uri> [--rpc http://127.0.0.1:9545/jsonrpc]
// npm run chain -- --network tron mine <N> [--rpc http://127.0.0.1:9545/jsonrpc]
import { parseCliArgs } from '../cli-args';
import { freePort } from '../db/embedded';
import { startLocalChain } from './local-chain';
import { DEFAULT_TRON_RPC, mineHint, payHint } from './hints';
import { evmUrlOf, mineTron, payTronUri, startLocalTron, TRON_RULES, tronChainSettings } from './tron-local';

export const DEFAULT_TRON_PORT = 9545;
const DEFAULT_RPC = DEFAULT_TRON_RPC;

function fail(message: string): never {
  console.error(`chain: ${message}`);
  process.exit(1);
}

/** Whether these arguments are a Tron invocation: `--network tron`, or `pay` with a tron: URI. */
export function isTronInvocation(argv: string[]): boolean {
  const at = argv.findIndex((arg) => arg === '--network' || arg.startsWith('--network='));
  const network = at < 0 ? undefined : argv[at]!.includes('=') ? argv[at]!.split('=')[1] : argv[at + 1];
  return network === 'tron' || (argv[0] === 'pay' && argv.some((arg) => arg.startsWith('tron:')));
}

/** Removes `--network tron` so that each command parses only its own options. */
function withoutNetwork(argv: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--network') i++;
    else if (!argv[i]!.startsWith('--network=')) out.push(argv[i]!);
  }
  return out;
}

async function start(argv: string[]) {
  const { values } = parseCliArgs(argv, {
    port: { type: 'string', default: String(DEFAULT_TRON_PORT) },
    'block-time': { type: 'string', default: '3' },
    json: { type: 'boolean', default: false },
  });
  const port = Number(values.port);
  const blockSeconds = Number(values['block-time']);
  if (!Number.isInteger(port) || port < 1 || port > 65535) fail('--port must be a TCP port');
  if (!(blockSeconds >= 0)) fail('--block-time must be a number of seconds (0: a block only per transaction)');
  const chain = await startLocalChain({ port: await freePort(), blockIntervalMs: blockSeconds * 1000 });
  let tron;
  try {
    tron = await startLocalTron(chain, { port });
  } catch (error) {
    await chain.stop();
    fail(`cannot listen on 127.0.0.1:${port} (${(error as Error).message}): pick another --port`);
  }
  const stop = () =>
    void tron.facade
      .close()
      .then(() => chain.stop())
      .then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  if (values.json) {
    console.log(
      JSON.stringify({
        rpc_url: tron.rpcUrl,
        network: 'tron',
        chain_id: tron.chainId,
        tokens: tron.tokens,
        funded_account: { address: tron.funded.address, private_key: tron.funded.privateKey },
      }),
    );
    return;
  }
  // No CONFIRMATIONS_TRON: the façade answers `finalized` (head − 19), which the watcher follows as on TRON.
  const settings = tronChainSettings(tron);
  console.log(
    `Local Tron chain: TRON JSON-RPC on ${tron.rpcUrl}, a block every ${blockSeconds || '—'} s and one per transaction.`,
  );
  console.log(
    "A simulation of TRON's JSON-RPC over a local EVM engine (no TRON node runs offline): docs/settlement.md says what it models.",
  );
  console.log(
    `Rules: no pending/safe tags, at most ${TRON_RULES.maxBlockRange} blocks per eth_getLogs, hex addresses in filters, finalized = head − ${TRON_RULES.finalizedDepth}.`,
  );
  console.log(`Mock TRC-20 USDT ${tron.tokens.USDT} (6 decimals), minted to ${tron.funded.address}.`);
  console.log('\nStart the app with these settings (another terminal):\n');
  console.log(
    `  ${Object.entries(settings)
      .map(([k, v]) => `${k}=${v}`)
      .join(' \\\n  ')} \\\n  npm start`,
  );
  console.log(`\nThen pay a live USDT/tron invoice:  ${payHint('tron', tron.rpcUrl)}`);
  console.log(`Mine blocks (finality is ${TRON_RULES.finalizedDepth} blocks deep):  ${mineHint(tron.rpcUrl, 20)}`);
  console.log(
    `Funded development account (publicly known key, local use only): ${tron.funded.address} ${tron.funded.privateKey}`,
  );
  console.log('\nCtrl-C stops the chain (its state is not kept).');
}

async function pay(argv: string[]) {
  const { values: flags, positionals } = parseCliArgs(
    argv,
    { rpc: { type: 'string', default: DEFAULT_RPC } },
    { allowPositionals: true },
  );
  const values = { rpc: String(flags.rpc) };
  const uri = positionals[0];
  if (!uri) fail('usage: npm run chain -- --network tron pay <payment_uri> [--rpc URL]');
  const evmUrl = evmUrlOf(values.rpc);
  await fetch(evmUrl, { method: 'POST', body: '{"jsonrpc":"2.0","id":1,"method":"eth_chainId","params":[]}' }).catch(
    () => fail(`no local Tron chain answers on ${values.rpc}: start it with npm run chain -- --network tron`),
  );
  let paid;
  try {
    paid = await payTronUri(evmUrl, uri);
  } catch (error) {
    fail((error as Error).message);
  }
  console.log(`paid: txid ${paid.txid} in block ${paid.blockNumber} (${paid.status})`);
}

async function mine(argv: string[]) {
  const { values: flags, positionals } = parseCliArgs(
    argv,
    { rpc: { type: 'string', default: DEFAULT_RPC } },
    { allowPositionals: true },
  );
  const values = { rpc: String(flags.rpc) };
  const blocks = Number(positionals[0] ?? '1');
  if (!Number.isInteger(blocks) || blocks < 1 || blocks > 100_000)
    fail('usage: npm run chain -- --network tron mine <N> (1 … 100000)');
  await mineTron(evmUrlOf(values.rpc), blocks).catch((error: Error) =>
    fail(`mining failed on ${values.rpc}: ${error.message}`),
  );
  console.log(`mined ${blocks} block${blocks === 1 ? '' : 's'}`);
}

export async function runTronCli(argv: string[]): Promise<void> {
  const [command, ...rest] = withoutNetwork(argv);
  if (command === 'pay') await pay(rest);
  else if (command === 'mine') await mine(rest);
  else await start(withoutNetwork(argv));
}
