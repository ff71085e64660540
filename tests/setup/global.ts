// Vitest global setup: a database and an app server of the run's own, never the developer's.
//
// - Database: a FRESH embedded PostgreSQL in a temp directory on a free port; or, when TEST_DATABASE_URL is set,
//   a freshly created, uniquely named database on that server (dropped at the end).
// - Migrations applied with the project's own migrate().
// - `next build` if the build is missing or stale (same fingerprint as `npm start`), then `next start` on a free
//   port with that DATABASE_URL (other env such as PLAN_* limits is passed through untouched).
// - TEST_BASE_URL and DATABASE_URL are provided to test files (inject(), copied to process.env by env.ts).
// Teardown stops Next and the database and deletes the temp dir; an exit handler does the same synchronously if
// the run dies before teardown.
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { ensureEmbeddedDatabase, freePort, makeTempDir, type EmbeddedDatabase } from '../../scripts/db/embedded';
import { migrate } from '../../scripts/db/migrate';
import { ensureBuild, startNext, type NextServer } from '../../scripts/next-app';
import { chainSettings, startLocalChain, type LocalChain } from '../../scripts/chain/local-chain';

declare module 'vitest' {
  export interface ProvidedContext {
    TEST_BASE_URL: string;
    DATABASE_URL: string;
    WEBHOOK_ENCRYPTION_KEY: string;
    TEST_CHAIN: TestChain;
  }
}

/** The suite's local chain, as the `ethereum` network of the server under test. */
export interface TestChain {
  rpcUrl: string;
  chainId: number;
  tokens: { USDT: string; USDC: string };
  confirmations: number;
}

/** Confirmations the suite's server requires on `ethereum` (small: tests mine them explicitly). */
const TEST_CONFIRMATIONS = 3;

function log(message: string) {
  console.error(`[test setup] ${message}`);
}

async function createDatabaseOn(serverUrl: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `invoicing_test_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  const admin = new URL(serverUrl);
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(`create database ${client.escapeIdentifier(name)}`);
  } finally {
    await client.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: admin.toString() });
      await c.connect();
      try {
        await c.query(`drop database if exists ${c.escapeIdentifier(name)} with (force)`);
      } finally {
        await c.end();
      }
    },
  };
}

export default async function setup(project: TestProject) {
  const started = Date.now();
  const cleanups: Array<() => Promise<void>> = [];
  let tempDir: string | undefined;
  let embedded: EmbeddedDatabase | undefined;
  let server: NextServer | undefined;
  let chain: LocalChain | undefined;

  // Safety net if the process exits without running teardown.
  const onExit = () => {
    for (const child of [server?.child, chain?.child]) {
      try {
        child?.kill('SIGKILL');
      } catch {
        // gone
      }
    }
    embedded?.stopSync();
    if (tempDir) rmSync(tempDir, { recursive: true, force: true });
  };
  process.once('exit', onExit);

  const teardown = async () => {
    for (const cleanup of cleanups.reverse()) {
      try {
        await cleanup();
      } catch (err) {
        console.error('[test teardown]', err);
      }
    }
    cleanups.length = 0;
    process.removeListener('exit', onExit);
  };

  try {
    let databaseUrl: string;
    if (process.env.TEST_DATABASE_URL) {
      const created = await createDatabaseOn(process.env.TEST_DATABASE_URL);
      cleanups.push(created.drop);
      databaseUrl = created.url;
      log(`created database ${new URL(databaseUrl).pathname.slice(1)} on TEST_DATABASE_URL's server`);
    } else {
      tempDir = makeTempDir('invoicing-test-');
      const dir = tempDir;
      cleanups.push(async () => rmSync(dir, { recursive: true, force: true }));
      embedded = await ensureEmbeddedDatabase({
        dataDir: path.join(tempDir, 'postgres'),
        port: 0,
        database: 'invoicing_test',
        verbose: false,
      });
      const db = embedded;
      cleanups.push(() => db.stop());
      databaseUrl = embedded.url;
      log(`fresh embedded PostgreSQL on port ${embedded.port} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
    }

    let t = Date.now();
    await migrate(databaseUrl, { quiet: true });
    log(`migrated (${((Date.now() - t) / 1000).toFixed(1)} s)`);

    t = Date.now();
    await ensureBuild({ stdio: 'stderr' });
    // Secrets of the run's own: nothing is read from or written to the developer's .data/.
    process.env.WEBHOOK_ENCRYPTION_KEY = randomBytes(32).toString('base64url');
    process.env.NEXTAUTH_SECRET ??= randomBytes(32).toString('base64url');
    // A local EVM chain (hardhat node + mock USDT/USDC) that the server watches as `ethereum`; no other network
    // is watched, so live invoices elsewhere answer network_not_watched.
    t = Date.now();
    const localChain = await startLocalChain({ port: await freePort() });
    chain = localChain;
    cleanups.push(() => localChain.stop());
    Object.assign(process.env, chainSettings(localChain, 'ethereum'), { CONFIRMATIONS_ETHEREUM: String(TEST_CONFIRMATIONS) });
    log(`local chain on ${localChain.rpcUrl} (${((Date.now() - t) / 1000).toFixed(1)} s)`);
    t = Date.now();
    const port = await freePort();
    server = await startNext({ port, databaseUrl, stdio: 'pipe', publicUrl: `http://127.0.0.1:${port}` });
    const next = server;
    cleanups.push(() => next.stop());
    log(`next start on ${server.baseUrl} (${((Date.now() - t) / 1000).toFixed(1)} s); setup took ${((Date.now() - started) / 1000).toFixed(1)} s`);

    project.provide('TEST_BASE_URL', server.baseUrl);
    project.provide('TEST_CHAIN', { rpcUrl: localChain.rpcUrl, chainId: localChain.chainId, tokens: localChain.tokens, confirmations: TEST_CONFIRMATIONS });
    project.provide('DATABASE_URL', databaseUrl);
    project.provide('WEBHOOK_ENCRYPTION_KEY', process.env.WEBHOOK_ENCRYPTION_KEY);
    process.env.TEST_BASE_URL = server.baseUrl;
    process.env.DATABASE_URL = databaseUrl;
  } catch (err) {
    await teardown();
    throw err;
  }

  return teardown;
}
