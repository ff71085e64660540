// The chaos run's own PostgreSQL: Debian's PostgreSQL 15 where it is installed (a second server version, and the
// one a managed database would more likely run), else the embedded server. Either is restarted the way a
// managed database's maintenance does it: a fast shutdown, then a start on the same port and data.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import {
  ensureEmbeddedDatabase,
  freePort,
  makeTempDir,
  removeEmbeddedDataDir,
  restartEmbeddedServer,
} from '../db/embedded';
import { asServerUser, prepareDataDir, removeDataDir, serverDataDir } from '../db/server-user';

const run = promisify(execFile);
const DEBIAN_15 = '/usr/lib/postgresql/15/bin';

export interface ChaosDatabase {
  url: string;
  kind: string;
  /** Fast shutdown, then start again; `whileDown` runs between the two. */
  restart(whileDown?: () => Promise<void>): Promise<void>;
  stop(): Promise<void>;
}

async function debian15(): Promise<ChaosDatabase> {
  const requested = path.join(makeTempDir('chaos-pg15-'), 'data');
  const dataDir = serverDataDir(requested);
  prepareDataDir(dataDir);
  const port = await freePort();
  const as = { ...asServerUser(), env: { ...process.env, LC_MESSAGES: 'C' } };
  const pgCtl = (args: string[]) => run(path.join(DEBIAN_15, 'pg_ctl'), args, as);
  await run(
    path.join(DEBIAN_15, 'initdb'),
    ['-D', dataDir, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync'],
    as,
  );
  const options = `-p ${port} -c listen_addresses=127.0.0.1 -c unix_socket_directories='' -c max_connections=200`;
  const start = () =>
    pgCtl(['start', '-w', '-t', '60', '-s', '-D', dataDir, '-l', path.join(dataDir, 'server.log'), '-o', options]);
  const stop = () => pgCtl(['stop', '-w', '-t', '60', '-s', '-m', 'fast', '-D', dataDir]);
  await start();
  const admin = new pg.Client({ connectionString: `postgres://postgres@127.0.0.1:${port}/postgres` });
  await admin.connect();
  await admin.query('CREATE DATABASE chaos');
  await admin.end();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/chaos`,
    kind: 'Debian PostgreSQL 15',
    restart: async (whileDown = async () => {}) => {
      await stop();
      try {
        await whileDown();
      } finally {
        await start();
      }
    },
    stop: async () => {
      await stop().catch(() => undefined);
      removeDataDir(requested);
    },
  };
}

async function embedded(): Promise<ChaosDatabase> {
  const dataDir = path.join(makeTempDir('chaos-pg-'), 'postgres');
  const db = await ensureEmbeddedDatabase({ dataDir, port: 0, database: 'chaos', verbose: false });
  const client = new pg.Client({ connectionString: db.url });
  await client.connect();
  const { rows } = await client.query<{ data_directory: string }>('SHOW data_directory');
  await client.end();
  return {
    url: db.url,
    kind: 'embedded PostgreSQL 18',
    restart: (whileDown) => restartEmbeddedServer(rows[0]!.data_directory, db.port, whileDown),
    stop: async () => {
      await db.stop();
      removeEmbeddedDataDir(dataDir);
    },
  };
}

export async function startChaosDatabase(): Promise<ChaosDatabase> {
  if (process.env.CHAOS_EMBEDDED !== 'true' && existsSync(path.join(DEBIAN_15, 'initdb'))) {
    try {
      return await debian15();
    } catch (error) {
      console.error(
        `[chaos] Debian's PostgreSQL 15 did not start (${(error as Error).message.split('\n')[0]}); using the embedded server`,
      );
    }
  }
  return embedded();
}
