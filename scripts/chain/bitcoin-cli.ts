// npm run chain -- --network bitcoin [--port 18443] [--json]
//   a bcoin regtest node behind a Bitcoin Core-compatible RPC, funded; prints the settings for the app.
// npm run chain -- --network bitcoin pay <bip21 uri> | mine N | reorg N [--rpc URL] [--json]
//   pays from the funded key, mines N blocks, or invalidates the last N blocks (their transactions go back to
//   the mempool). --rpc defaults to the node started last from this checkout (.data/bitcoin-regtest.json).
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import {
  EXAMPLE_XPUB,
  FUNDED_WALLET,
  mineBlocks,
  parseBip21,
  reorgBlocks,
  sendBitcoin,
  startBitcoinNode,
} from './bitcoin-node';

const STATE_FILE = path.resolve(import.meta.dirname, '../../.data/bitcoin-regtest.json');

function fail(message: string): never {
  console.error(`chain: ${message}`);
  process.exit(1);
}

function print(json: boolean, value: Record<string, unknown>, text: string) {
  console.log(json ? JSON.stringify(value) : text);
}

async function start(values: { port?: string; json?: boolean }) {
  const port = Number(values.port ?? '18443');
  if (!Number.isInteger(port) || port < 1 || port > 65535) fail('--port must be a TCP port');
  const node = await startBitcoinNode({ port });
  mkdirSync(path.dirname(STATE_FILE), { recursive: true });
  writeFileSync(STATE_FILE, JSON.stringify({ rpc_url: node.rpcUrl }), { mode: 0o600 });
  const stop = () =>
    void node.stop().then(() => {
      rmSync(STATE_FILE, { force: true });
      process.exit(0);
    });
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  const settings = { RPC_URL_BITCOIN: node.rpcUrl, BITCOIN_CHAIN: 'regtest', CONFIRMATIONS_BITCOIN: '2' };
  if (values.json) {
    console.log(
      JSON.stringify({
        rpc_url: node.rpcUrl,
        network: 'bitcoin',
        chain: 'regtest',
        funded_wallet: FUNDED_WALLET,
        example_xpub: EXAMPLE_XPUB,
      }),
    );
    return;
  }
  console.log(`Local Bitcoin regtest node (bcoin) with a Bitcoin Core-compatible RPC on ${node.rpcUrl}`);
  console.log(
    `Funded development key (publicly known, local use only): ${FUNDED_WALLET.address} ${FUNDED_WALLET.private_key_wif}`,
  );
  console.log('\nStart the app with these settings (another terminal):\n');
  console.log(
    `  ${Object.entries(settings)
      .map(([k, v]) => `${k}='${v}'`)
      .join(' \\\n  ')} \\\n  npm start`,
  );
  console.log(
    `\nIn the portal's Wallets page, set the Bitcoin wallet to this example key (local use only):\n  ${EXAMPLE_XPUB}`,
  );
  console.log('\nThen pay a live BTC invoice:  npm run chain -- --network bitcoin pay "<payment_uri>"');
  console.log('Confirm it:                   npm run chain -- --network bitcoin mine 2');
  console.log('Undo the last block:          npm run chain -- --network bitcoin reorg 1');
  console.log('\nBlocks are mined only on demand. Ctrl-C stops the node (its state is not kept).');
}

function rpcUrl(given: string | undefined): string {
  if (given) return given;
  try {
    return (JSON.parse(readFileSync(STATE_FILE, 'utf8')) as { rpc_url: string }).rpc_url;
  } catch {
    fail('no local Bitcoin node found: start one with npm run chain -- --network bitcoin (or pass --rpc URL)');
  }
}

function count(text: string | undefined, usage: string): number {
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1) fail(usage);
  return n;
}

export async function bitcoinCli(argv: string[]) {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      network: { type: 'string' },
      port: { type: 'string' },
      rpc: { type: 'string' },
      json: { type: 'boolean', default: false },
    },
  });
  const [command, argument] = positionals;
  const json = values.json ?? false;
  switch (command) {
    case undefined:
      return start(values);
    case 'pay': {
      if (!argument) fail('usage: npm run chain -- --network bitcoin pay <payment_uri> [--rpc URL]');
      let output;
      try {
        output = parseBip21(argument);
      } catch (error) {
        fail((error as Error).message);
      }
      const txid = await sendBitcoin(rpcUrl(values.rpc), [output]);
      return print(
        json,
        { txid, address: output.address, amount: output.amount },
        `paid: ${output.amount} BTC to ${output.address} in tx ${txid} (in the mempool: mine blocks to confirm it)`,
      );
    }
    case 'mine': {
      const height = await mineBlocks(
        rpcUrl(values.rpc),
        count(argument, 'usage: npm run chain -- --network bitcoin mine N'),
      );
      return print(json, { height }, `mined: the chain is now ${height} blocks high`);
    }
    case 'reorg': {
      const height = await reorgBlocks(
        rpcUrl(values.rpc),
        count(argument, 'usage: npm run chain -- --network bitcoin reorg N'),
      );
      return print(
        json,
        { height },
        `reorganised: the last blocks were invalidated, the chain is now ${height} blocks high (their transactions are back in the mempool)`,
      );
    }
    default:
      fail(`unknown command ${command}: pay, mine or reorg`);
  }
}
