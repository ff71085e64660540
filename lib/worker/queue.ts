import { Logger, runMigrations } from 'graphile-worker';

/**
 * graphile-worker's log lines, as JSON lines at our levels. Debug is dropped, and so is its info line per
 * successful job ("Completed task …"): at a thousand deliveries a second it was the worker's largest single
 * cost (a write per job), and each delivery's outcome is in webhook_deliveries already. Failures still log.
 */
export const queueLogger = new Logger(() => (level, message) => {
  if (level === 'debug' || (level === 'info' && message.startsWith('Completed task'))) return;
  console.error(JSON.stringify({ level, event: 'queue', message: message.slice(0, 500) }));
});

const quietLogger = new Logger(() => () => undefined);

/** Creates or upgrades the graphile_worker schema (idempotent; safe from several processes at once). */
export async function migrateJobQueue(connectionString: string): Promise<void> {
  await runMigrations({ connectionString, logger: quietLogger });
}
