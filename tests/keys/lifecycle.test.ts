import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATOR } from '@/lib/audit/audit';
import { db } from '@/lib/db';
import { env } from '@/lib/env';
import { createApiKey, revokeApiKey, rollApiKey } from '@/lib/keys/keys';
import { setWallet, removeWallet } from '@/lib/wallets/wallets';
import { setWorkspacePlan } from '@/lib/workspaces/workspaces';
import { startAdditionalApp, type AppInstance } from '../setup/app';
import { createWorkspace, monthlyCount, seedAccount } from '../support/fixtures';
import { call, expectProblem } from '../support/http';

/** Roll, expiry, IP allowlist, the active-key cap and creation throttle, and the audit rows of each change. */
let admin: pg.Client;
beforeAll(async () => {
  admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await admin.connect();
});
afterAll(async () => admin?.end());

const auditOf = async (workspaceId: string) =>
  (await db().auditLog.findMany({ where: { workspaceId }, orderBy: { id: 'asc' } })).map((row) => ({
    action: row.action,
    actor: row.actorLabel,
    target: row.target,
    details: row.details,
  }));

describe('roll', () => {
  it('without grace: the new secret works at once, the old one answers 401 expired_api_key', async () => {
    const account = await seedAccount({ plan: 'Developer', scopes: ['invoices:read'] });
    const { key, secret, old } = await rollApiKey(account.key.id, account.workspace.id, 0, OPERATOR);
    expect(key).toMatchObject({ label: account.key.label, environment: 'test', scopes: ['invoices:read'] });
    expect(secret).not.toBe(account.secret);
    expect(old.rolledToId).toBe(key.id);
    const me = await call('GET', '/v1/me', { key: secret });
    expect(me.status).toBe(200);
    expect(me.json.key).toMatchObject({ id: key.id, label: account.key.label, scopes: ['invoices:read'] });
    const refused = expectProblem(await call('GET', '/v1/me', { key: account.secret }), 401, 'expired_api_key');
    expect(refused.detail).toMatch(/expired/);
  });

  it('with grace: both secrets work until the grace period ends, then only the new one', async () => {
    const account = await seedAccount({ plan: 'Developer' });
    const { secret, old } = await rollApiKey(account.key.id, account.workspace.id, 3600, OPERATOR);
    expect(old.expiresAt!.getTime() - Date.now()).toBeGreaterThan(3500_000);
    expect((await call('GET', '/v1/me', { key: account.secret })).status).toBe(200);
    expect((await call('GET', '/v1/me', { key: secret })).status).toBe(200);
    // The grace period ends (moved to the past rather than waiting an hour).
    await admin.query(`UPDATE api_keys SET expires_at = now() - interval '1 second' WHERE id = $1`, [account.key.id]);
    expectProblem(await call('GET', '/v1/me', { key: account.secret }), 401, 'expired_api_key');
    expect((await call('GET', '/v1/me', { key: secret })).status).toBe(200);
  });

  it("a revoked or expired key cannot be rolled; another workspace's key is not found", async () => {
    const account = await seedAccount({ plan: 'Developer' });
    const other = await seedAccount({ plan: 'Developer' });
    await expect(rollApiKey(account.key.id, other.workspace.id, 0)).rejects.toMatchObject({ code: 'not_found' });
    await revokeApiKey(account.key.id, account.workspace.id);
    await expect(rollApiKey(account.key.id, account.workspace.id, 0)).rejects.toMatchObject({ code: 'key_not_active' });
    await expect(rollApiKey(other.key.id, other.workspace.id, 604_801)).rejects.toMatchObject({
      code: 'validation_failed',
    });
  });
});

describe('expiry', () => {
  it('a key with expires_at works before it and answers 401 expired_api_key (not counted) after it', async () => {
    const workspace = await createWorkspace('Developer');
    const { key, secret } = await createApiKey(workspace.id, {
      label: 'short-lived',
      environment: 'test',
      expiresAt: new Date(Date.now() + 60_000),
    });
    expect(key.expiresAt).not.toBeNull();
    expect((await call('GET', '/v1/me', { key: secret })).status).toBe(200);
    await admin.query(`UPDATE api_keys SET expires_at = now() - interval '1 second' WHERE id = $1`, [key.id]);
    const refused = expectProblem(await call('GET', '/v1/me', { key: secret }), 401, 'expired_api_key');
    expect(refused).toBeTruthy();
    expect(await monthlyCount(workspace.id)).toBe(1);
  });

  it('an expiry in the past is refused at creation', async () => {
    const workspace = await createWorkspace('Developer');
    await expect(
      createApiKey(workspace.id, { label: 'x', environment: 'test', expiresAt: new Date(Date.now() - 1000) }),
    ).rejects.toThrow(/future/);
  });
});

/**
 * The allowlist trusts X-Forwarded-For only because the app's HTTP server appends the socket's address to it
 * (lib/http/client-address.ts). `next start` alone sets the header only when the client did not: then a client
 * could claim any address. The suite's server must be the app's own (scripts/server.ts): the first test below
 * fails plainly when it is not, and the spoofing tests fail with it rather than being skipped.
 */
async function serverAppendsSocketAddress(): Promise<boolean> {
  const workspace = await createWorkspace('Developer');
  const { secret } = await createApiKey(workspace.id, {
    label: 'probe',
    environment: 'test',
    allowedIps: ['198.51.100.1'],
  });
  const result = await call('GET', '/v1/me', { key: secret, headers: { 'X-Forwarded-For': '198.51.100.1' } });
  return result.status !== 200;
}

describe('IP allowlist', () => {
  let proxied: AppInstance;
  beforeAll(async () => {
    proxied = await startAdditionalApp({ env: { TRUSTED_PROXY_HOPS: '1' } });
  });
  afterAll(async () => proxied?.stop());

  it("the app's server appends the socket address to X-Forwarded-For (what the allowlist relies on)", async () => {
    expect(await serverAppendsSocketAddress()).toBe(true);
  });

  it('validates IPv4 and IPv6 CIDRs and stores them canonically', async () => {
    const workspace = await createWorkspace('Developer');
    const { key } = await createApiKey(workspace.id, {
      label: 'a',
      environment: 'test',
      allowedIps: '10.1.2.3/8, 2001:db8::1/32 192.0.2.7',
    });
    expect(key.allowedIps).toEqual(['10.0.0.0/8', '192.0.2.7/32', '2001:db8::/32']);
    for (const bad of ['10.0.0.0/33', 'not-an-ip', '2001:db8::/129', '1.2.3.4/8/1']) {
      await expect(
        createApiKey(workspace.id, { label: 'b', environment: 'test', allowedIps: [bad] }),
      ).rejects.toThrow();
    }
  });

  it('other addresses → 403 ip_not_allowed (not counted); the socket address decides', async () => {
    const workspace = await createWorkspace('Developer');
    const { secret } = await createApiKey(workspace.id, {
      label: 'office only',
      environment: 'test',
      allowedIps: ['203.0.113.0/24'],
    });
    expectProblem(await call('GET', '/v1/me', { key: secret }), 403, 'ip_not_allowed');
    expect(await monthlyCount(workspace.id)).toBe(0);
    const local = await createApiKey(workspace.id, {
      label: 'this machine',
      environment: 'test',
      allowedIps: ['127.0.0.1', '::1'],
    });
    expect((await call('GET', '/v1/me', { key: local.secret })).status).toBe(200);
  });

  it('a spoofed X-Forwarded-For changes nothing without a trusted proxy', async () => {
    const workspace = await createWorkspace('Developer');
    const { secret } = await createApiKey(workspace.id, {
      label: 'office only',
      environment: 'test',
      allowedIps: ['203.0.113.0/24'],
    });
    expectProblem(
      await call('GET', '/v1/me', { key: secret, headers: { 'X-Forwarded-For': '203.0.113.9' } }),
      403,
      'ip_not_allowed',
    );
    expect(await monthlyCount(workspace.id)).toBe(0);

    const local = await createApiKey(workspace.id, {
      label: 'this machine',
      environment: 'test',
      allowedIps: ['127.0.0.1', '::1'],
    });
    expect((await call('GET', '/v1/me', { key: local.secret })).status).toBe(200);
    expect(
      (await call('GET', '/v1/me', { key: local.secret, headers: { 'X-Forwarded-For': '203.0.113.9' } })).status,
    ).toBe(200);
  });

  it('behind one trusted proxy (TRUSTED_PROXY_HOPS=1) the entry the proxy wrote decides; entries the client wrote do not', async () => {
    const workspace = await createWorkspace('Developer');
    const { secret } = await createApiKey(workspace.id, {
      label: 'office only',
      environment: 'test',
      allowedIps: ['203.0.113.0/24'],
    });
    const base = proxied.baseUrl;
    expect(
      (await call('GET', '/v1/me', { key: secret, base, headers: { 'X-Forwarded-For': '203.0.113.9' } })).status,
    ).toBe(200);
    // The client forged the first entry; the proxy appended the real address.
    expectProblem(
      await call('GET', '/v1/me', { key: secret, base, headers: { 'X-Forwarded-For': '203.0.113.9, 198.51.100.4' } }),
      403,
      'ip_not_allowed',
    );
  });
});

describe('limits on key creation', () => {
  it('throttles creation per workspace per minute, and caps active keys (revoking frees a place)', async () => {
    const { KEY_CREATION_PER_MINUTE: perMinute, MAX_ACTIVE_KEYS_PER_WORKSPACE: cap } = env();
    const workspace = await createWorkspace('Developer');
    const created = [];
    for (let i = 0; i < perMinute; i++)
      created.push(await createApiKey(workspace.id, { label: `k${i}`, environment: 'test' }));
    await expect(createApiKey(workspace.id, { label: 'one too many', environment: 'test' })).rejects.toMatchObject({
      code: 'key_creation_throttled',
    });
    // Parallel creations cannot slip past the count: the workspace row lock serialises them.
    const other = await createWorkspace('Developer');
    const parallel = await Promise.allSettled(
      Array.from({ length: perMinute + 5 }, (_, i) => createApiKey(other.id, { label: `p${i}`, environment: 'test' })),
    );
    expect(parallel.filter((r) => r.status === 'fulfilled')).toHaveLength(perMinute);

    // The cap: move the keys' creation back (past the throttle) and fill the workspace up to it.
    await admin.query(`UPDATE api_keys SET created_at = created_at - interval '2 minutes' WHERE workspace_id = $1`, [
      workspace.id,
    ]);
    await admin.query(
      `INSERT INTO api_keys (workspace_id, label, environment, scopes, prefix, secret_hash, created_at)
       SELECT $1, 'filler', 'test', ARRAY['invoices:read'], 'test_filler00', md5(random()::text) || g, now() - interval '2 minutes'
       FROM generate_series(1, $2::int) g`,
      [workspace.id, cap - perMinute],
    );
    const refused = createApiKey(workspace.id, { label: 'one over the cap', environment: 'test' });
    await expect(refused).rejects.toMatchObject({ code: 'key_limit_reached' });
    await expect(refused).rejects.toThrow(new RegExp(`${cap} active keys`));
    // A roll replaces a key, so it is allowed at the cap; a revocation frees a place.
    await expect(rollApiKey(created[0]!.key.id, workspace.id, 0)).resolves.toBeTruthy();
    await revokeApiKey(created[1]!.key.id, workspace.id);
    await expect(createApiKey(workspace.id, { label: 'after revoke', environment: 'test' })).resolves.toBeTruthy();
  });
});

describe('audit log', () => {
  it('one row per change, with who and what, written with the change; none for a refused action', async () => {
    const workspace = await createWorkspace('Trial');
    const { key } = await createApiKey(workspace.id, { label: 'audited', environment: 'test' }, OPERATOR);
    const rolled = await rollApiKey(key.id, workspace.id, 3600, {
      userId: null,
      label: 'someone@example.test',
      ip: '198.51.100.7',
    });
    await revokeApiKey(rolled.key.id, workspace.id, OPERATOR);
    await setWallet(workspace.id, { network: 'tron', address: 'TJRabPrwbZy45sbavfcjinPJC18kjpRTv8' }, OPERATOR);
    await removeWallet(workspace.id, 'tron', OPERATOR);
    await setWorkspacePlan(workspace.id, 'Developer', OPERATOR);

    // Refused actions record nothing.
    const before = (await auditOf(workspace.id)).length;
    await expect(revokeApiKey(rolled.key.id, workspace.id, OPERATOR)).rejects.toMatchObject({
      code: 'key_already_revoked',
    });
    await expect(
      setWallet(workspace.id, { network: 'tron', address: 'not-an-address' }, OPERATOR),
    ).rejects.toMatchObject({ code: 'invalid_wallet_address' });
    await expect(
      createApiKey(workspace.id, { label: 'x', environment: 'test', allowedIps: ['nope'] }, OPERATOR),
    ).rejects.toThrow();
    await removeWallet(workspace.id, 'tron', OPERATOR); // nothing to remove
    expect((await auditOf(workspace.id)).length).toBe(before);

    const rows = await auditOf(workspace.id);
    expect(rows.map((r) => r.action)).toEqual([
      'key.created',
      'key.rolled',
      'key.revoked',
      'wallet.set',
      'wallet.removed',
      'plan.changed',
    ]);
    expect(rows[0]).toMatchObject({
      actor: 'operator (admin CLI)',
      target: `key ${key.id}`,
      details: { label: 'audited', environment: 'test' },
    });
    expect(rows[1]).toMatchObject({
      actor: 'someone@example.test',
      details: { new_key_id: rolled.key.id, grace_seconds: 3600 },
    });
    expect(rows[5]).toMatchObject({ details: { from: 'Trial', to: 'Developer' } });
    const ip = await admin.query(`SELECT ip FROM audit_log WHERE workspace_id = $1 AND action = 'key.rolled'`, [
      workspace.id,
    ]);
    expect(ip.rows[0].ip).toBe('198.51.100.7');
    // No secret ever reaches the audit log.
    expect(JSON.stringify(rows)).not.toMatch(/(test|live)_[A-Za-z0-9]{36}/);
  });

  it('is append-only: UPDATE and DELETE change nothing, even run directly in the database', async () => {
    const workspace = await createWorkspace('Developer');
    await createApiKey(workspace.id, { label: 'x', environment: 'test' }, OPERATOR);
    const updated = await admin.query(`UPDATE audit_log SET action = 'x' WHERE workspace_id = $1`, [workspace.id]);
    const deleted = await admin.query(`DELETE FROM audit_log WHERE workspace_id = $1`, [workspace.id]);
    expect([updated.rowCount, deleted.rowCount]).toEqual([0, 0]);
    expect((await auditOf(workspace.id)).map((r) => r.action)).toEqual(['key.created']);
  });
});
