import { Logger, runMigrations } from 'graphile-worker';

/** graphile-worker's log lines, as JSON lines at our levels; debug is dropped. */
export const queueLogger = new Logger(() => (level, message) => {
  if (level === 'debug') return;
  console.error(JSON.stringify({ level, event: 'queue', message: message.slice(0, 500) }));
});

const quietLogger = new Logger(() => () => undefined);

/** Creates or upgrades the graphile_worker schema (idempotent; safe from several processes at once). */
export async function migrateJobQueue(connectionString: string): Promise<void> {
  await runMigrations({ connectionString, logger: quietLogger });
}
