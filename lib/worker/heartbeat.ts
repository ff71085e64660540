import { db, TRANSACTION_OPTIONS } from '../db';

/**
 * graphile-worker keeps a job locked by a worker that died (SIGKILL, lost machine) for 4 hours. Each worker
 * process records one heartbeat row listing its queue workers' ids; any process that finds another's row older
 * than `staleAfterSeconds` releases those ids' locks with graphile-worker's own force_unlock_workers, so their
 * jobs run again now. One statement per beat, so a busy process still beats on time.
 */
export async function beat(processId: string, workerIds: readonly string[], now: Date = new Date()): Promise<void> {
  await db()
    .$executeRaw`INSERT INTO worker_heartbeats (process_id, worker_ids, seen_at) VALUES (${processId}, ${[...workerIds]}::text[], ${now})
    ON CONFLICT (process_id) DO UPDATE SET worker_ids = EXCLUDED.worker_ids, seen_at = EXCLUDED.seen_at`;
}

export async function releaseStaleWorkers(staleAfterSeconds: number, now: Date = new Date()): Promise<string[]> {
  const cutoff = new Date(now.getTime() - staleAfterSeconds * 1000);
  return db().$transaction(async (tx) => {
    const stale = await tx.$queryRaw<Array<{ process_id: string; worker_ids: string[] }>>`
      DELETE FROM worker_heartbeats WHERE process_id IN (
        SELECT process_id FROM worker_heartbeats WHERE seen_at < ${cutoff} FOR UPDATE SKIP LOCKED)
      RETURNING process_id, worker_ids`;
    const ids = stale.flatMap((row) => row.worker_ids);
    if (ids.length > 0) await tx.$executeRaw`SELECT graphile_worker.force_unlock_workers(${ids}::text[])`;
    return stale.map((row) => row.process_id);
  }, TRANSACTION_OPTIONS);
}

export async function forget(processId: string): Promise<void> {
  await db().$executeRaw`DELETE FROM worker_heartbeats WHERE process_id = ${processId}`;
}

/** A process whose runner stopped: unlocks its own jobs and deletes its heartbeat, in one transaction (both or neither). */
export async function releaseOwnJobs(processId: string, workerIds: readonly string[]): Promise<void> {
  await db().$transaction(
    async (tx) => {
      if (workerIds.length > 0)
        await tx.$executeRaw`SELECT graphile_worker.force_unlock_workers(${[...workerIds]}::text[])`;
      await tx.$executeRaw`DELETE FROM worker_heartbeats WHERE process_id = ${processId}`;
    },
    { maxWait: 2000, timeout: 5000 },
  );
}
