// The embedded PostgreSQL's start-up: as root from inside a private (0700) folder without changing any folder's
// mode, and with a password of its own (the old well-known `postgres` is refused, and replaced in old data dirs).
import { chmodSync, mkdirSync, mkdtempSync, rmSync, statSync, unlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { ensureEmbeddedDatabase, makeTempDir, removeEmbeddedDataDir } from '../../scripts/db/embedded';
import { LEGACY_PASSWORD, passwordFile } from '../../scripts/db/credentials';
import { isRoot } from '../../scripts/db/server-user';

function withPassword(url: string, password: string): string {
  const changed = new URL(url);
  changed.password = password;
  return changed.toString();
}

async function connects(url: string): Promise<true | string> {
  const client = new pg.Client({ connectionString: url });
  try {
    await client.connect();
    return true;
  } catch (error) {
    return (error as { code?: string }).code ?? String(error);
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function query<T>(url: string, sql: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql)).rows as T[];
  } finally {
    await client.end();
  }
}

const mode = (p: string) => statSync(p).mode & 0o7777;

function ancestors(dir: string): string[] {
  const all = [dir];
  while (path.dirname(all.at(-1)!) !== all.at(-1)) all.push(path.dirname(all.at(-1)!));
  return all;
}

describe('embedded PostgreSQL credentials', () => {
  it("the test run's database refuses the old well-known password and accepts the generated one", async () => {
    const url = process.env.DATABASE_URL!;
    if (process.env.TEST_DATABASE_URL) return; // an external server: its credentials are not ours
    expect(new URL(url).password).not.toBe(LEGACY_PASSWORD);
    expect(await connects(withPassword(url, LEGACY_PASSWORD))).toBe('28P01'); // invalid_password
    expect(await connects(url)).toBe(true);
  });

  it('a data directory made with the old password keeps its data and gets a generated password (stopped and running)', async () => {
    const dir = makeTempDir('invoicing-legacy-');
    const dataDir = path.join(dir, 'postgres');
    try {
      const first = await ensureEmbeddedDatabase({ dataDir, port: 0, database: 'legacy', verbose: false });
      expect(mode(passwordFile(dataDir))).toBe(0o600);
      expect(mode(dataDir)).toBe(0o700);
      // Make it look like a data dir from before: the old password, no password file.
      await query(
        first.url,
        `create table kept (v text); insert into kept values ('still here'); alter role postgres password '${LEGACY_PASSWORD}'`,
      );
      await first.stop();
      unlinkSync(passwordFile(dataDir));

      // Stopped: replaced in single-user mode on the next start.
      const second = await ensureEmbeddedDatabase({ dataDir, port: 0, database: 'legacy', verbose: false });
      expect(await query(second.url, 'select v from kept')).toEqual([{ v: 'still here' }]);
      expect(await connects(withPassword(second.url, LEGACY_PASSWORD))).toBe('28P01');
      expect(mode(passwordFile(dataDir))).toBe(0o600);

      // Running (started by an older checkout): replaced over a connection when a command attaches.
      await query(second.url, `alter role postgres password '${LEGACY_PASSWORD}'`);
      unlinkSync(passwordFile(dataDir));
      const attached = await ensureEmbeddedDatabase({ dataDir, database: 'legacy', verbose: false });
      expect(attached.startedHere).toBe(false);
      expect(await query(attached.url, 'select v from kept')).toEqual([{ v: 'still here' }]);
      expect(await connects(withPassword(attached.url, LEGACY_PASSWORD))).toBe('28P01');
      await second.stop();
    } finally {
      removeEmbeddedDataDir(dataDir);
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('embedded PostgreSQL as root in a private folder', () => {
  it.skipIf(!isRoot)(
    'starts from inside a fresh 0700 folder and changes no ancestor folder mode (skipped unless root: only root runs the server as another user)',
    async () => {
      const privateDir = mkdtempSync(path.join(os.tmpdir(), 'invoicing-private-'));
      chmodSync(privateDir, 0o700);
      const dataDir = path.join(privateDir, 'clone', '.data', 'postgres');
      mkdirSync(path.dirname(dataDir), { recursive: true, mode: 0o700 });
      const watched = ancestors(path.dirname(dataDir));
      const before = watched.map(mode);
      try {
        const db = await ensureEmbeddedDatabase({ dataDir, port: 0, database: 'private', verbose: false });
        try {
          expect(await query(db.url, 'select current_user as who')).toEqual([{ who: 'postgres' }]);
        } finally {
          await db.stop();
        }
        expect(watched.map(mode)).toEqual(before);
        expect(mode(privateDir)).toBe(0o700);
      } finally {
        removeEmbeddedDataDir(dataDir);
        rmSync(privateDir, { recursive: true, force: true });
      }
    },
  );
});
