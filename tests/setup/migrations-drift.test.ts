// CI guard: the committed migrations must produce exactly prisma/schema.prisma (like cal.com's migration check).
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createMigration, MIGRATIONS_DIR } from '../../scripts/db/migrate';

describe('migrations', () => {
  it('match schema.prisma: a new migration would be empty', async () => {
    const scratch = mkdtempSync(path.join(os.tmpdir(), 'migration-drift-'));
    try {
      // Write any would-be migration to a scratch copy so the repository is never touched.
      for (const entry of readdirSync(MIGRATIONS_DIR)) {
        cpSync(path.join(MIGRATIONS_DIR, entry), path.join(scratch, entry), { recursive: true });
      }
      const created = await createMigration(process.env.DATABASE_URL ?? '', 'drift_check', { migrationsDir: scratch });
      const sql = created ? readFileSync(path.join(created, 'migration.sql'), 'utf8') : '';
      expect(sql, 'schema.prisma changed without a migration: run npm run db:migration:create -- <name>').toBe('');
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  });
});
