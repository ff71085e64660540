// Runs this deployment's chain watchers alone until SIGINT/SIGTERM (the worker runs the same loops beside its
// other tasks): `tsx scripts/chain/watch.ts` with DATABASE_URL and the RPC_URL_* settings.
import { startChainWatchers } from '../../lib/chain';
import { configuredWatchers } from '../../lib/chain';
import { disconnectDb } from '../../lib/db';

async function main() {
  const controller = new AbortController();
  process.once('SIGINT', () => controller.abort());
  process.once('SIGTERM', () => controller.abort());
  if (configuredWatchers().length === 0)
    console.error(
      JSON.stringify({
        level: 'info',
        event: 'chain_watchers_none',
        message: 'no RPC_URL_* set: no network is watched',
      }),
    );
  await startChainWatchers(controller.signal);
  await disconnectDb();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
