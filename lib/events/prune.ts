import { db } from '../db';
import { EVENT_RETENTION_DAYS } from './types';

/** Deletes events older than the retention (their deliveries go with them), in batches. Returns the count. */
export async function pruneEvents(now: Date = new Date(), batch = 5000): Promise<number> {
  const cutoff = new Date(now.getTime() - EVENT_RETENTION_DAYS * 24 * 3600 * 1000);
  let total = 0;
  for (;;) {
    const deleted = await db()
      .$executeRaw`DELETE FROM events WHERE id IN (SELECT id FROM events WHERE created_at < ${cutoff} LIMIT ${batch})`;
    total += deleted;
    if (deleted < batch) return total;
  }
}
