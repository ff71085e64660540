import { EvmWatcher } from './evm/evm-watcher';
import { BitcoinWatcher } from './bitcoin/bitcoin-watcher';
import { EVM_NETWORKS, isWatched } from './networks';
import { TronWatcher } from './tron/tron-watcher';
import { jsonLog, runWatcher, type ChainWatcher, type RunOptions } from './watcher';

/** The watchers of this deployment: one per network with an RPC URL (EVM networks, Tron and Bitcoin). */
export function configuredWatchers(): ChainWatcher[] {
  const watchers: ChainWatcher[] = EVM_NETWORKS.filter((network) => isWatched(network)).map(
    (network) => new EvmWatcher(network, { log: jsonLog }),
  );
  if (isWatched('tron')) watchers.push(new TronWatcher({ log: jsonLog }));
  if (isWatched('bitcoin')) watchers.push(new BitcoinWatcher({ log: jsonLog }));
  return watchers;
}

/**
 * Starts every configured watcher (for the worker); each runs until `signal` aborts, as the only watcher of
 * its network across processes. A watcher that refuses its RPC (chain id mismatch) stops; the others go on.
 */
export function startChainWatchers(signal: AbortSignal, options: RunOptions = {}): Promise<void> {
  return Promise.all(
    configuredWatchers().map((watcher) => runWatcher(watcher, signal, options).catch(() => undefined)),
  ).then(() => undefined);
}
