// Vitest global setup: databases and app servers of the run's own, never the developer's.
//
// Test files run in parallel, one per vitest worker; each worker has a LANE of its own, so files never share
// state they could disturb (a worker process draining every delivery, a chain reorganised by a snapshot revert):
// - a database: one FRESH embedded PostgreSQL in a temp directory on a free port holds every lane's database;
//   or, when TEST_DATABASE_URL is set, freshly created, uniquely named databases on that server (dropped at the end);
// - a local chain (hardhat node + mock USDT/USDC) that the lane's server watches as `ethereum`;
// - a `next start` on a free port with the lane's DATABASE_URL (other env such as PLAN_* limits passes through).
// Migrations are applied once with the project's own migrate(); the other lanes' databases are copies of the first.
// `next build` runs once if the build is missing or stale (same fingerprint as `npm start`).
// The lanes are provided to test files (inject('TEST_LANES'); env.ts copies the worker's lane into process.env).
// Teardown stops everything and deletes the temp dir; an exit handler does the same synchronously if the run dies
// before teardown.
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { ensureEmbeddedDatabase, freePort, makeTempDir, type EmbeddedDatabase } from '../../scripts/db/embedded';
import { migrate } from '../../scripts/db/migrate';
import { ensureBuild, startNext } from '../../scripts/next-app';
import { chainSettings, startLocalChain } from '../../scripts/chain/local-chain';
import { startBitcoinNode } from '../../scripts/chain/bitcoin-node';
import { startLocalTron, tronChainSettings } from '../../scripts/chain/tron-local';

declare module 'vitest' {
  export interface ProvidedContext {
    TEST_LANES: TestLane[];
    WEBHOOK_ENCRYPTION_KEY: string;
  }
}

/** What one vitest worker's test files run against. */
export interface TestLane {
  TEST_BASE_URL: string;
  DATABASE_URL: string;
  TEST_CHAIN: TestChain;
  /** The lane's Bitcoin regtest node (bcoin behind a Core-compatible RPC), watched as `bitcoin`. */
  TEST_BITCOIN: TestBitcoin;
  /** The same chain behind the TRON JSON-RPC façade, watched as `tron` (base58 addresses). */
  TEST_TRON: { rpcUrl: string; chainId: number; tokens: { USDT: string } };
  /** Everything the lane's server prints; a failing test shows the server's errors from its own run (env.ts). */
  SERVER_LOG: string;
}

export interface TestBitcoin {
  rpcUrl: string;
  confirmations: number;
}

/** Confirmations the suite's server requires on `bitcoin` (the default, 2: what the hosted page says). */
const TEST_BITCOIN_CONFIRMATIONS = 2;

/** How many test files run at once (vitest's maxWorkers reads the same variable, vitest.config.ts). */
export function testLaneCount(): number {
  const count = Number(process.env.TEST_LANES ?? 2);
  return Number.isInteger(count) && count >= 1 ? count : 2;
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

/** Creates a uniquely named database on serverUrl's server, empty or as a copy of `template` (no one connected to it). */
async function createDatabaseOn(
  serverUrl: string,
  template?: string,
): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `invoicing_test_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  const admin = new URL(serverUrl);
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    const copy = template ? ` template ${client.escapeIdentifier(template)}` : '';
    await client.query(`create database ${client.escapeIdentifier(name)}${copy}`);
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
  const children: Array<{ child?: { kill(signal: NodeJS.Signals): unknown } }> = [];

  // Safety net if the process exits without running teardown.
  const onExit = () => {
    for (const { child } of children) {
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
    const laneCount = testLaneCount();
    // The first lane's database is migrated; the others are copies of it (a template copy takes milliseconds).
    let serverUrl: string;
    let firstDatabaseUrl: string;
    if (process.env.TEST_DATABASE_URL) {
      serverUrl = process.env.TEST_DATABASE_URL;
      const created = await createDatabaseOn(serverUrl);
      cleanups.push(created.drop);
      firstDatabaseUrl = created.url;
      log(`created database ${new URL(firstDatabaseUrl).pathname.slice(1)} on TEST_DATABASE_URL's server`);
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
      firstDatabaseUrl = embedded.url;
      serverUrl = embedded.url;
      log(`fresh embedded PostgreSQL on port ${embedded.port} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
    }

    let t = Date.now();
    await migrate(firstDatabaseUrl, { quiet: true });
    const logDir = makeTempDir('invoicing-test-logs-');
    cleanups.push(async () => rmSync(logDir, { recursive: true, force: true }));
    const databaseUrls = [firstDatabaseUrl];
    for (let lane = 1; lane < laneCount; lane++) {
      const copy = await createDatabaseOn(serverUrl, new URL(firstDatabaseUrl).pathname.slice(1));
      cleanups.push(copy.drop);
      databaseUrls.push(copy.url);
    }
    log(`migrated, ${laneCount} lane database(s) (${((Date.now() - t) / 1000).toFixed(1)} s)`);

    await ensureBuild({ stdio: 'stderr' });
    // Secrets of the run's own: nothing is read from or written to the developer's .data/.
    process.env.WEBHOOK_ENCRYPTION_KEY = randomBytes(32).toString('base64url');
    process.env.NEXTAUTH_SECRET ??= randomBytes(32).toString('base64url');

    t = Date.now();
    const lanes = await Promise.all(
      databaseUrls.map(async (databaseUrl, laneIndex): Promise<TestLane> => {
        // A local EVM chain that this lane's server watches as `ethereum` (and, behind the façade, as `tron`), and a
        // Bitcoin regtest node watched as `bitcoin`; no other network is watched, so live invoices elsewhere answer
        // network_not_watched.
        const [localChain, bitcoin] = await Promise.all([
          startLocalChain({ port: await freePort() }),
          startBitcoinNode(),
        ]);
        children.push(localChain, bitcoin);
        cleanups.push(
          () => localChain.stop(),
          () => bitcoin.stop(),
        );
        const bitcoinSettings = {
          RPC_URL_BITCOIN: bitcoin.rpcUrl,
          BITCOIN_CHAIN: 'regtest',
          CONFIRMATIONS_BITCOIN: String(TEST_BITCOIN_CONFIRMATIONS),
        };
        // The same node behind the TRON JSON-RPC façade is the lane server's `tron` network.
        const localTron = await startLocalTron(localChain);
        cleanups.push(() => localTron.facade.close());
        const port = await freePort();
        const serverLog = path.join(logDir, `lane-${laneIndex + 1}-server.log`);
        const server = await startNext({
          port,
          databaseUrl,
          stdio: 'pipe',
          logFile: serverLog,
          publicUrl: `http://127.0.0.1:${port}`,
          env: {
            ...chainSettings(localChain, 'ethereum'),
            CONFIRMATIONS_ETHEREUM: String(TEST_CONFIRMATIONS),
            ...tronChainSettings(localTron),
            ...bitcoinSettings,
          },
        });
        children.push(server);
        cleanups.push(() => server.stop());
        return {
          TEST_BASE_URL: server.baseUrl,
          DATABASE_URL: databaseUrl,
          TEST_CHAIN: {
            rpcUrl: localChain.rpcUrl,
            chainId: localChain.chainId,
            tokens: localChain.tokens,
            confirmations: TEST_CONFIRMATIONS,
          },
          TEST_BITCOIN: { rpcUrl: bitcoin.rpcUrl, confirmations: TEST_BITCOIN_CONFIRMATIONS },
          TEST_TRON: { rpcUrl: localTron.rpcUrl, chainId: localTron.chainId, tokens: localTron.tokens },
          SERVER_LOG: serverLog,
        };
      }),
    );
    log(
      `${laneCount} lane(s) of local chain + next start (${((Date.now() - t) / 1000).toFixed(1)} s); setup took ${((Date.now() - started) / 1000).toFixed(1)} s`,
    );

    project.provide('TEST_LANES', lanes);
    project.provide('WEBHOOK_ENCRYPTION_KEY', process.env.WEBHOOK_ENCRYPTION_KEY);
  } catch (err) {
    await teardown();
    throw err;
  }

  return teardown;
}
