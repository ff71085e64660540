import { db } from '../db';

/** What one successful pass of a watcher saw: the chain's head and the block it has scanned up to. */
export interface WatcherPass {
  headBlock: bigint;
  scannedBlock: bigint;
}

/**
 * Records a watcher's pass for GET /metrics (docs/operations.md): caught_up_at moves only when the pass reached
 * the head it saw, so "seconds behind" keeps growing while a watcher catches up or is stuck.
 */
export async function recordWatcherPass(network: string, pass: WatcherPass, at: Date): Promise<void> {
  const caughtUp = pass.scannedBlock >= pass.headBlock;
  await db().$executeRaw`
    INSERT INTO chain_watcher_status (network, head_block, scanned_block, last_pass_at, caught_up_at)
    VALUES (${network}, ${pass.headBlock}, ${pass.scannedBlock}, ${at}, ${caughtUp ? at : null})
    ON CONFLICT (network) DO UPDATE SET head_block = EXCLUDED.head_block, scanned_block = EXCLUDED.scanned_block,
      last_pass_at = EXCLUDED.last_pass_at, caught_up_at = COALESCE(EXCLUDED.caught_up_at, chain_watcher_status.caught_up_at)`;
}
