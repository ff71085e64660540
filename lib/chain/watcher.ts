import pg from 'pg';
import { databaseUrl } from '../env';
import { recordWatcherPass, type WatcherPass } from './watcher-status';

/**
 * A chain watcher: one per network (docs/settlement.md). The EVM networks share EvmWatcher (lib/chain/evm); Tron and
 * Bitcoin join by implementing this interface (their own transfer reading; attribution, confirmations and
 * events are shared in lib/chain/settle.ts).
 */
export interface ChainWatcher {
  readonly network: string;
  /** Checks the RPC before the first pass (e.g. its chain id); throws to refuse to start. */
  verify(): Promise<void>;
  /**
   * One pass: record new blocks' transfers, confirm or revert pending payments. Returns the head it saw and the
   * block it scanned up to, when it knows them (GET /metrics shows the lag).
   */
  tick(): Promise<WatcherPass | void>;
}

export type WatcherLog = (entry: {
  level: 'info' | 'warn' | 'error';
  event: string;
  network: string;
  [key: string]: unknown;
}) => void;

export const jsonLog: WatcherLog = (entry) => console.error(JSON.stringify(entry));

export interface RunOptions {
  /** Pause between passes when caught up. */
  intervalMs?: number;
  /** Longest back-off after consecutive failures. */
  maxBackoffMs?: number;
  log?: WatcherLog;
  /** Called when this process becomes (true) or stops being (false) the network's watcher. */
  onLeadership?: (leader: boolean) => void;
  /** Called after each successful pass. */
  onPass?: (at: Date) => void;
}

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
  });

/**
 * Runs a watcher until `signal` aborts, as the only one of its network across every process sharing the
 * database: it holds a session-level PostgreSQL advisory lock on a connection of its own (released by
 * PostgreSQL the moment that connection or process dies, so a standby takes over within one retry). Failed
 * passes back off exponentially (1 s … maxBackoffMs) and retry; a refused RPC (verify) stops the watcher.
 * A database that is unreachable or restarting never stops it: the lock connection is opened again (with the
 * same back-off) until it succeeds, and a lock connection that dies ends the leadership at once (after a
 * restart, another process may hold the lock).
 */
export async function runWatcher(watcher: ChainWatcher, signal: AbortSignal, options: RunOptions = {}): Promise<void> {
  const log = options.log ?? jsonLog;
  const interval = options.intervalMs ?? 2000;
  const maxBackoff = options.maxBackoffMs ?? 60_000;
  let lockFailures = 0;
  while (!signal.aborted) {
    const lock = new pg.Client({ connectionString: databaseUrl() });
    let leader = false;
    let lockLost = false;
    lock.on('error', () => (lockLost = true));
    lock.on('end', () => (lockLost = true));
    try {
      try {
        await lock.connect();
        const { rows } = await lock.query<{ ok: boolean }>(
          `SELECT pg_try_advisory_lock(hashtext('chain_watcher'), hashtext($1)) AS ok`,
          [watcher.network],
        );
        leader = rows[0]?.ok === true;
        lockFailures = 0;
      } catch (error) {
        lockFailures++;
        const wait = Math.min(maxBackoff, 1000 * 2 ** Math.min(lockFailures - 1, 16));
        log({
          level: 'warn',
          event: 'chain_watcher_lock_retry',
          network: watcher.network,
          message: (error as Error).message,
          retry_in_ms: wait,
        });
        await sleep(wait, signal);
        continue;
      }
      if (!leader) {
        await lock.end();
        await sleep(interval * 2, signal);
        continue;
      }
      options.onLeadership?.(true);
      log({ level: 'info', event: 'chain_watcher_started', network: watcher.network });
      try {
        await watcher.verify();
      } catch (error) {
        log({
          level: 'error',
          event: 'chain_watcher_refused',
          network: watcher.network,
          message: (error as Error).message,
        });
        throw error;
      }
      let failures = 0;
      while (!signal.aborted && !lockLost) {
        try {
          const pass = await watcher.tick();
          failures = 0;
          const at = new Date();
          if (pass) {
            await recordWatcherPass(watcher.network, pass, at).catch((error: unknown) =>
              log({
                level: 'warn',
                event: 'chain_watcher_status_failed',
                network: watcher.network,
                message: (error as Error).message,
              }),
            );
          }
          options.onPass?.(at);
          await sleep(interval, signal);
        } catch (error) {
          failures++;
          const wait = Math.min(maxBackoff, 1000 * 2 ** Math.min(failures - 1, 16));
          log({
            level: 'warn',
            event: 'chain_watcher_retry',
            network: watcher.network,
            message: (error as Error).message,
            retry_in_ms: wait,
          });
          await sleep(wait, signal);
          // A lost lock connection means another process may be watching now: start over.
          const alive = await lock.query('SELECT 1').then(
            () => true,
            () => false,
          );
          if (!alive) break;
        }
      }
    } finally {
      if (leader) options.onLeadership?.(false);
      await lock.end().catch(() => undefined);
    }
  }
}
