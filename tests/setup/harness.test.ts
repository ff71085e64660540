// The test harness itself: the run's own database is migrated and the app answers over HTTP.
import { readdirSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAdditionalApp, type AppInstance } from './app';

const migrationsDir = path.resolve(import.meta.dirname, '..', '..', 'prisma', 'migrations');

describe('test harness', () => {
  let client: pg.Client;

  beforeAll(async () => {
    client = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await client.connect();
  });
  afterAll(async () => {
    await client?.end();
  });

  it('uses a database of its own, never the developer one', () => {
    expect(process.env.DATABASE_URL).toBeTruthy();
    expect(new URL(process.env.DATABASE_URL!).pathname).toMatch(/^\/invoicing_test/);
  });

  it('the database answers select 1', async () => {
    const { rows } = await client.query('select 1 as one');
    expect(rows).toEqual([{ one: 1 }]);
  });

  it('every committed migration, including init, is recorded as applied', async () => {
    const committed = readdirSync(migrationsDir, { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => d.name)
      .sort();
    expect(committed.some((name) => /^\d{14}_init$/.test(name))).toBe(true);
    const { rows } = await client.query<{ migration_name: string }>(
      'select migration_name from _prisma_migrations where finished_at is not null and rolled_back_at is null order by migration_name',
    );
    expect(rows.map((r) => r.migration_name)).toEqual(committed);
  });

  it('the health endpoint answers through HTTP', async () => {
    const res = await fetch(`${process.env.TEST_BASE_URL}/api/health`);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ status: 'ok' });
  });

  describe('additional instance', () => {
    let second: AppInstance | undefined;
    afterAll(async () => {
      await second?.stop();
    });

    it('starts a second next start on another port against the same database', async () => {
      second = await startAdditionalApp();
      expect(second.baseUrl).not.toBe(process.env.TEST_BASE_URL);
      const res = await fetch(`${second.baseUrl}/api/health`);
      expect(res.status).toBe(200);
    });
  });
});
