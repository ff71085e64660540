// What `npm run chain` prints for the next steps: the commands to pay, mine or change a rate, with `--rpc` when
// the chain is not on the port those commands assume, so each printed line works as it is pasted.
export const DEFAULT_EVM_RPC = 'http://127.0.0.1:8545';
export const DEFAULT_TRON_RPC = 'http://127.0.0.1:9545/jsonrpc';

/** ` --rpc <url>` when `rpcUrl` is not the default the command assumes; '' otherwise. */
export function rpcFlag(rpcUrl: string, defaultRpc: string): string {
  return rpcUrl.replace(/\/$/, '') === defaultRpc ? '' : ` --rpc ${rpcUrl}`;
}

/** `npm run chain -- [--network tron] pay "<payment_uri>" [--rpc …]` */
export function payHint(family: 'evm' | 'tron', rpcUrl: string): string {
  return family === 'tron'
    ? `npm run chain -- --network tron pay "<payment_uri>"${rpcFlag(rpcUrl, DEFAULT_TRON_RPC)}`
    : `npm run chain -- pay "<payment_uri>"${rpcFlag(rpcUrl, DEFAULT_EVM_RPC)}`;
}

export function mineHint(rpcUrl: string, blocks: number): string {
  return `npm run chain -- --network tron mine ${blocks}${rpcFlag(rpcUrl, DEFAULT_TRON_RPC)}`;
}

export function setRateHint(rpcUrl: string): string {
  return `npm run chain -- set-rate ETH/USD 2500.12${rpcFlag(rpcUrl, DEFAULT_EVM_RPC)}`;
}

export const CHAIN_USAGE = `Usage: npm run chain -- [command] [options]

  (no command)   start a local EVM chain with mock USDT/USDC and price feeds; prints the app's settings
                 --port N          RPC port (default 8545)
                 --network NAME    ethereum, polygon or base (default ethereum): which settings to print
                 --block-time S    seconds between blocks (default 2; 0: a block per transaction only)
                 --json            print the settings as one JSON object
  pay <payment_uri> [--rpc URL]     pay an invoice's payment_uri from the funded account (default ${DEFAULT_EVM_RPC})
  set-rate <PAIR> <price> [--rpc URL]   change a mock price feed, e.g. set-rate ETH/USD 2500.12
  receiver [--port N]              a local https webhook receiver (default port 4443)
  --network tron [--port N] [--block-time S] [--json]
                 the local Tron chain: TRON JSON-RPC façade on --port (default 9545)
  --network tron pay <payment_uri> [--rpc URL]   (default ${DEFAULT_TRON_RPC})
  --network tron mine <N> [--rpc URL]
  --network bitcoin [--port N] [--json]
                 a Bitcoin regtest node (bcoin, Core-compatible RPC) on --port (default 18443)
  --network bitcoin pay <payment_uri> | mine <N> | reorg <N> [--rpc URL] [--json]

A chain started on another --port is reached with --rpc http://127.0.0.1:<port> (Tron: …:<port>/jsonrpc);
the commands it prints carry that flag already.`;
