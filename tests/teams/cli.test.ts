import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { db } from '@/lib/db';
import { createUserWithWorkspace } from '@/lib/workspaces/workspaces';
import { admin } from '../support/admin-cli';

const CLI_TEST_TIMEOUT_MS = 240_000;

describe('admin CLI: member:list, member:add, member:remove', () => {
  it(
    'adds an existing account with a role, lists it, removes it; never the last Owner; audited as the operator',
    async () => {
      const owner = `cli-owner-${randomUUID()}@example.test`;
      const dev = `cli-dev-${randomUUID()}@example.test`;
      const { workspace } = await createUserWithWorkspace({ email: owner, password: 'correct horse battery' });
      await createUserWithWorkspace({ email: dev, password: 'correct horse battery' });

      const added = await admin(
        'member:add',
        '--workspace',
        workspace.id,
        '--email',
        dev,
        '--role',
        'developer',
        '--json',
      );
      expect(added.code, added.stderr).toBe(0);
      expect(JSON.parse(added.stdout).member).toMatchObject({ email: dev, role: 'developer' });

      const again = await admin('member:add', '--workspace', workspace.id, '--email', dev, '--role', 'viewer');
      expect(again.code).toBe(1);
      expect(again.stderr).toContain('already a member');
      const badRole = await admin('member:add', '--workspace', workspace.id, '--email', dev, '--role', 'superuser');
      expect(badRole.code).toBe(2);
      expect(badRole.stderr).toContain('Unknown role superuser');

      const listed = await admin('member:list', '--workspace', workspace.id, '--json');
      expect(listed.code, listed.stderr).toBe(0);
      expect(JSON.parse(listed.stdout).data.map((m: { email: string; role: string }) => [m.email, m.role])).toEqual([
        [owner, 'owner'],
        [dev, 'developer'],
      ]);

      const lastOwner = await admin('member:remove', '--workspace', workspace.id, '--email', owner);
      expect(lastOwner.code).toBe(1);
      expect(lastOwner.stderr).toContain('last Owner');

      const removed = await admin('member:remove', '--workspace', workspace.id, '--email', dev, '--json');
      expect(removed.code, removed.stderr).toBe(0);
      const audit = await db().auditLog.findMany({
        where: { workspaceId: workspace.id, action: { in: ['member.added', 'member.removed'] } },
        orderBy: { id: 'asc' },
      });
      expect(audit.map((row) => [row.action, row.actorLabel])).toEqual([
        ['member.added', 'operator (admin CLI)'],
        ['member.removed', 'operator (admin CLI)'],
      ]);
    },
    CLI_TEST_TIMEOUT_MS,
  );
});
