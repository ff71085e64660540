// Keeps one worker process running (used by `npm start`): a worker that exits or fails to start while we are
// not stopping is started again after a back-off, and each restart is logged. A worker exits non-zero when its
// runner stops (scripts/worker.ts), so a dead queue runner never goes unnoticed.
import type { WorkerProcess } from './worker-process';

export interface SupervisorOptions {
  start: () => Promise<WorkerProcess>;
  stopping: () => boolean;
  log?: (line: string) => void;
  /** The first pause before a restart; doubled for each failure in a row, up to maxDelayMs. */
  initialDelayMs?: number;
  maxDelayMs?: number;
  /** A worker that ran this long counts as healthy: the next failure pauses initialDelayMs again. */
  healthyAfterMs?: number;
}

export interface Supervisor {
  /** The worker running now, if any. */
  current(): WorkerProcess | undefined;
  /** Restarts so far. */
  restarts(): number;
  /** Resolves once `stopping()` is true and the last worker has exited. */
  done: Promise<void>;
}

export function restartDelay(failuresInARow: number, initialDelayMs: number, maxDelayMs: number): number {
  return Math.min(maxDelayMs, initialDelayMs * 2 ** Math.max(0, failuresInARow - 1));
}

export function superviseWorker(options: SupervisorOptions): Supervisor {
  const {
    start,
    stopping,
    log = (line) => console.error(line),
    initialDelayMs = 1000,
    maxDelayMs = 30_000,
    healthyAfterMs = 60_000,
  } = options;
  let current: WorkerProcess | undefined;
  let restarts = 0;
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  const loop = async () => {
    let failuresInARow = 0;
    while (!stopping()) {
      const started = Date.now();
      let outcome: string;
      try {
        current = await start();
        const code = await current.exited;
        outcome = `worker exited (${code})`;
      } catch (error) {
        current = undefined;
        outcome = `worker failed to start (${(error instanceof Error ? error.message : String(error)).split('\n')[0]})`;
      }
      if (stopping()) return;
      failuresInARow = Date.now() - started >= healthyAfterMs ? 1 : failuresInARow + 1;
      const delay = restartDelay(failuresInARow, initialDelayMs, maxDelayMs);
      restarts++;
      log(
        `[start] ${outcome}; restarting in ${(delay / 1000).toFixed(1)} s (restart ${restarts}, ${failuresInARow} in a row)`,
      );
      await sleep(delay);
    }
  };
  return { current: () => current, restarts: () => restarts, done: loop() };
}
