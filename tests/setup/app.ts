// Start an ADDITIONAL `next start` instance against the run's database (for multi-instance tests).
import { freePort } from '../../scripts/db/embedded';
import { startNext, type NextServer } from '../../scripts/next-app';

const running = new Set<NextServer>();
process.once('exit', () => {
  for (const server of running) server.child.kill('SIGKILL');
});

export interface AppInstance {
  baseUrl: string;
  /** The PostgreSQL application_name on every connection of this instance (to find or end only those). */
  applicationName: string;
  stop(): Promise<void>;
}

/**
 * Spawns `next start` on a free port with the same DATABASE_URL as the main test server (uses the existing
 * build made by the global setup). Extra env (e.g. plan limits) can be given per instance.
 */
export async function startAdditionalApp(options: { env?: Record<string, string> } = {}): Promise<AppInstance> {
  const databaseUrl = process.env.DATABASE_URL;
  if (!databaseUrl) throw new Error('DATABASE_URL is not set: run through `npm test` (vitest global setup)');
  const port = await freePort();
  const applicationName = `test-instance-${port}`;
  const url = new URL(databaseUrl);
  url.searchParams.set('application_name', applicationName);
  const server = await startNext({
    port,
    databaseUrl: url.toString(),
    env: options.env,
    stdio: 'pipe',
    publicUrl: `http://127.0.0.1:${port}`,
  });
  running.add(server);
  return {
    baseUrl: server.baseUrl,
    applicationName,
    stop: async () => {
      await server.stop();
      running.delete(server);
    },
  };
}
