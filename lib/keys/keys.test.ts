import { describe, expect, it } from 'vitest';
import { createKey, createWorkspace } from '../../tests/support/fixtures';
import { listApiKeys, revokeApiKey } from './keys';

describe('API key management', () => {
  it('of concurrent revokes exactly one succeeds; the others say already revoked', async () => {
    const workspace = await createWorkspace();
    const { key } = await createKey(workspace.id);
    const results = await Promise.allSettled(Array.from({ length: 5 }, () => revokeApiKey(key.id, workspace.id)));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    for (const result of results.filter((r) => r.status === 'rejected')) {
      expect((result as PromiseRejectedResult).reason.code).toBe('key_already_revoked');
    }
  });

  it("a workspace cannot revoke or see another workspace's key", async () => {
    const owner = await createWorkspace();
    const stranger = await createWorkspace();
    const { key } = await createKey(owner.id);
    await expect(revokeApiKey(key.id, stranger.id)).rejects.toMatchObject({ code: 'not_found' });
    expect(await listApiKeys(stranger.id)).toEqual([]);
    expect((await listApiKeys(owner.id))[0]?.revokedAt).toBeNull();
  });
});
