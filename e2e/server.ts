// The e2e app server, started by Playwright's webServer: a FRESH embedded PostgreSQL in a temp dir (or a fresh
// database on TEST_DATABASE_URL's server), migrated with the project's migrate(), `next build` if stale, then
// `next start` on E2E_PORT, and a worker (scripts/worker.ts) beside it. Never the developer's .data database.
// A local EVM chain (hardhat node, mock USDT/USDC) on E2E_CHAIN_PORT is the `ethereum` network of both: the
// worker's watcher settles live invoices paid on it. The worker trusts a self-signed certificate written to
// E2E_TLS_DIR (NODE_EXTRA_CA_CERTS), so the tests' https receivers can be live webhook endpoints.
// SIGTERM/SIGINT stop everything and delete the dirs.
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { chainSettings, startLocalChain, type LocalChain } from '../scripts/chain/local-chain';
import { E2E_BITCOIN_CREDENTIALS, startBitcoinNode, type BitcoinNode } from '../scripts/chain/bitcoin-node';
import { startLocalTron, tronChainSettings } from '../scripts/chain/tron-local';
import { ensureEmbeddedDatabase, makeTempDir, type EmbeddedDatabase } from '../scripts/db/embedded';
import { ensureDevCertificate } from '../scripts/dev-tls';
import { reapWhenGone } from '../scripts/db/reaper';
import { migrate } from '../scripts/db/migrate';
import { ensureBuild, startNext, type NextServer } from '../scripts/next-app';
import { startWorker, type WorkerProcess } from '../scripts/worker-process';

const log = (message: string) => console.error(`[e2e server] ${message}`);

const port = Number(process.env.E2E_PORT);
if (!Number.isInteger(port) || port <= 0) throw new Error('E2E_PORT is not set (playwright.config.ts sets it)');
const chainPort = Number(process.env.E2E_CHAIN_PORT);
if (!Number.isInteger(chainPort) || chainPort <= 0)
  throw new Error('E2E_CHAIN_PORT is not set (playwright.config.ts sets it)');
const tlsDir = process.env.E2E_TLS_DIR ?? '';
if (tlsDir === '') throw new Error('E2E_TLS_DIR is not set (playwright.config.ts sets it)');

let tempDir: string | undefined;
let embedded: EmbeddedDatabase | undefined;
let server: NextServer | undefined;
let worker: WorkerProcess | undefined;
let chain: LocalChain | undefined;
let bitcoin: BitcoinNode | undefined;
let dropDatabase: (() => Promise<void>) | undefined;
let stopping = false;

async function shutdown(code: number) {
  if (stopping) return;
  stopping = true;
  try {
    await Promise.all([server?.stop(), worker?.stop()]);
    await chain?.stop();
    await bitcoin?.stop();
  } catch (err) {
    console.error(err);
  }
  try {
    await dropDatabase?.();
    await embedded?.stop();
  } catch (err) {
    console.error(err);
  }
  if (tempDir) rmSync(tempDir, { recursive: true, force: true });
  if (tlsDir) rmSync(tlsDir, { recursive: true, force: true });
  process.exit(code);
}

process.on('SIGTERM', () => void shutdown(0));
process.on('SIGINT', () => void shutdown(0));
process.on('exit', () => {
  server?.child.kill('SIGKILL');
  worker?.child.kill('SIGKILL');
  chain?.child.kill('SIGKILL');
  bitcoin?.child.kill('SIGKILL');
  embedded?.stopSync();
  if (tempDir) rmSync(tempDir, { recursive: true, force: true });
  if (tlsDir) rmSync(tlsDir, { recursive: true, force: true });
});

async function freshDatabaseOn(serverUrl: string): Promise<string> {
  const name = `invoicing_e2e_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  await client.query(`create database ${client.escapeIdentifier(name)}`);
  await client.end();
  dropDatabase = async () => {
    const c = new pg.Client({ connectionString: serverUrl });
    await c.connect();
    await c.query(`drop database if exists ${c.escapeIdentifier(name)} with (force)`);
    await c.end();
  };
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

async function main() {
  let databaseUrl: string;
  if (process.env.TEST_DATABASE_URL) {
    databaseUrl = await freshDatabaseOn(process.env.TEST_DATABASE_URL);
  } else {
    tempDir = makeTempDir('invoicing-e2e-');
    embedded = await ensureEmbeddedDatabase({
      dataDir: path.join(tempDir, 'postgres'),
      port: 0,
      database: 'invoicing_e2e',
      verbose: false,
    });
    reapWhenGone(process.pid, path.join(tempDir, 'postgres'), tempDir);
    databaseUrl = embedded.url;
  }
  const host = new URL(databaseUrl).hostname;
  if (!['127.0.0.1', 'localhost', '::1'].includes(host))
    throw new Error(`refusing to run e2e against a non-local database (${host})`);
  await migrate(databaseUrl, { quiet: true });
  log('database ready and migrated');
  await ensureBuild({ stdio: 'stderr' });
  chain = await startLocalChain({ port: chainPort });
  // Both processes see the chain as ethereum, with 3 confirmations (the tests mine them).
  // The same chain behind the TRON JSON-RPC façade is tron (finality: the façade's finalized block, head − 19).
  const tron = await startLocalTron(chain, { port: Number(process.env.E2E_TRON_PORT) || 0 });
  // And a Bitcoin regtest node (bcoin behind its Core-compatible RPC), watched as bitcoin with 2 confirmations.
  bitcoin = await startBitcoinNode({
    port: Number(process.env.E2E_BITCOIN_PORT),
    credentials: E2E_BITCOIN_CREDENTIALS,
  });
  const chainEnv = {
    ...chainSettings(chain, 'ethereum'),
    CONFIRMATIONS_ETHEREUM: '3',
    ...tronChainSettings(tron),
    RPC_URL_BITCOIN: bitcoin.rpcUrl,
    BITCOIN_CHAIN: 'regtest',
    CONFIRMATIONS_BITCOIN: '2',
  };
  log(`local chain on ${chain.rpcUrl}, TRON façade on ${tron.rpcUrl}, bitcoin node on ${bitcoin.rpcUrl}`);
  const certificate = ensureDevCertificate(tlsDir);
  // Web and worker share the run's own webhook encryption key (nothing under .data/), and both allow the
  // tests' receivers on 127.0.0.1: the web checks the URL when the endpoint is saved, the worker at delivery.
  const webhookEnv = {
    WEBHOOK_ENCRYPTION_KEY: randomBytes(32).toString('base64url'),
    WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
  };
  // Its per-job log lines stay out of Playwright's output; they are printed if it dies. It trusts the tests'
  // https receivers' certificate: live endpoints must be https, and the SSRF policy is not relaxed for it.
  worker = await startWorker({
    databaseUrl,
    env: {
      ...webhookEnv,
      ...chainEnv,
      NODE_EXTRA_CA_CERTS: certificate.certPath,
      PUBLIC_URL: `http://127.0.0.1:${port}`,
    },
    stdio: 'pipe',
  });
  log('worker ready');
  server = await startNext({
    port,
    databaseUrl,
    stdio: 'inherit',
    publicUrl: `http://127.0.0.1:${port}`,
    env: {
      // A secret of the run's own: nothing is written under the developer's .data/.
      NEXTAUTH_SECRET: randomBytes(32).toString('base64url'),
      PLAN_DEVELOPER_RATE_LIMIT: process.env.PLAN_DEVELOPER_RATE_LIMIT ?? '1000',
      // Every e2e sign-up comes from 127.0.0.1.
      SIGNUP_LIMIT_PER_HOUR: '1000',
      ...chainEnv,
      ...webhookEnv,
    },
  });
  log(`next start on ${server.baseUrl}`);
  const code = await Promise.race([server.exited, worker.exited]);
  if (!stopping) {
    log(`next or the worker exited unexpectedly (${code})\n${worker.output()}`);
    await shutdown(1);
  }
}

main().catch(async (err) => {
  console.error(err);
  await shutdown(1);
});
