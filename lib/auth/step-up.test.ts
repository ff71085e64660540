import { randomUUID } from 'node:crypto';
import type { Account, User } from 'next-auth';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { beforeEach, describe, expect, it } from 'vitest';
import type { AuditActor } from '../audit/audit';
import { recentSecurityChanges } from '../audit/recent-changes';
import { db } from '../db';
import { AppError } from '../errors';
import { createApiKey, listApiKeys, rollApiKey } from '../keys/keys';
import { listWallets, removeWallet, setWallet } from '../wallets/wallets';
import { createWebhookEndpoint, listWebhookEndpoints } from '../webhooks/endpoints';
import { createUserWithWorkspace } from '../workspaces/workspaces';
import { authOptions } from './next-auth';
import { createSession, revokeSession } from './sessions';
import { requireStepUp, STEP_UP_WINDOW_SECONDS, stepUp } from './step-up';
import { MAX_USER_PROOF_FAILURES } from './throttle';

// docs/portal.md: payout wallets and live keys need proof, not just a session. Every test goes through the domain
// functions the portal's server actions call, against the real database: the gate is in lib/, so a server
// action called by hand (tested in e2e/step-up.spec.ts) meets the same refusal.

const PASSWORD = 'correct horse battery';
// Fresh addresses per test: an address is the wallet of one workspace per network (lib/wallets/ownership).
let POLYGON = '';
let ATTACKER = '';
beforeEach(() => {
  POLYGON = privateKeyToAccount(generatePrivateKey()).address;
  ATTACKER = privateKeyToAccount(generatePrivateKey()).address;
});

async function signedIn() {
  const email = `stepup-${randomUUID()}@example.test`;
  const { user, workspace } = await createUserWithWorkspace({ email, password: PASSWORD, plan: 'Developer' });
  const session = await createSession(user.id);
  const actor = { userId: user.id, label: email, ip: '203.0.113.5', sessionId: session.id } satisfies AuditActor;
  return { user, workspaceId: workspace.id, session, actor };
}

async function refusedWithStepUpRequired(promise: Promise<unknown>): Promise<void> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  expect((error as AppError).code).toBe('step_up_required');
  expect((error as AppError).message).toMatch(/^Confirm it is you/);
}

async function auditActions(workspaceId: string): Promise<string[]> {
  const rows = await db().auditLog.findMany({
    where: { workspaceId },
    orderBy: { id: 'asc' },
    select: { action: true },
  });
  return rows.map((row) => row.action);
}

/** Moves this session's step-up back in time (as if it had been given `secondsAgo` seconds ago). */
async function ageStepUp(sessionId: string, secondsAgo: number): Promise<void> {
  await db().session.update({
    where: { id: sessionId },
    data: { steppedUpAt: new Date(Date.now() - secondsAgo * 1000) },
  });
}

describe('step-up is required, server-side, for each protected change', () => {
  it('wallet set: refused without a step-up and nothing changes; allowed after the password, audited with its proof', async () => {
    const { workspaceId, actor } = await signedIn();
    await refusedWithStepUpRequired(setWallet(workspaceId, { network: 'polygon', address: POLYGON }, actor));
    expect(await listWallets(workspaceId)).toEqual([]);
    expect(await auditActions(workspaceId)).not.toContain('wallet.set');

    await stepUp({ actor, password: PASSWORD });
    await setWallet(workspaceId, { network: 'polygon', address: POLYGON }, actor);
    expect((await listWallets(workspaceId)).map((w) => w.address)).toEqual([POLYGON]);
    const rows = await db().auditLog.findMany({
      where: { workspaceId, action: { in: ['user.stepped_up', 'wallet.set'] } },
      orderBy: { id: 'asc' },
    });
    expect(rows.map((r) => r.action)).toEqual(['user.stepped_up', 'wallet.set']);
    expect(rows[0]?.details).toMatchObject({ method: 'password', valid_minutes: 5 });
    expect(rows[0]?.ip).toBe('203.0.113.5');
    expect(rows[1]?.details).toMatchObject({ address: POLYGON, step_up: 'password' });
  });

  it('the refusal says what to type: the password, and with two-factor sign-in on, a code as well', async () => {
    const { workspaceId, actor } = await signedIn();
    const refusal = () => setWallet(workspaceId, { network: 'polygon', address: POLYGON }, actor);
    await expect(refusal()).rejects.toMatchObject({
      code: 'step_up_required',
      message: 'Confirm it is you: this change needs your password again (valid 5 minutes).',
    });
    await db().user.update({ where: { id: actor.userId }, data: { totpEnabledAt: new Date() } });
    await expect(refusal()).rejects.toMatchObject({
      code: 'step_up_required',
      message:
        'Confirm it is you: this change needs your password and a code from your authenticator app (or a recovery code) again (valid 5 minutes).',
    });
  });

  it('wallet remove: refused without a step-up, the wallet stays', async () => {
    const { workspaceId, actor } = await signedIn();
    await setWallet(workspaceId, { network: 'polygon', address: POLYGON }); // set by the operator (no step-up)
    await refusedWithStepUpRequired(removeWallet(workspaceId, 'polygon', actor));
    expect((await listWallets(workspaceId)).map((w) => w.address)).toEqual([POLYGON]);
    expect(await auditActions(workspaceId)).not.toContain('wallet.removed');
    await stepUp({ actor, password: PASSWORD });
    await removeWallet(workspaceId, 'polygon', actor);
    expect(await listWallets(workspaceId)).toEqual([]);
  });

  it('live webhook endpoint create: refused without a step-up and none exists; a test endpoint needs none', async () => {
    const { workspaceId, actor } = await signedIn();
    // An address literal with private networks allowed: no DNS, and the URL rules are not what this test is about.
    const live = { url: 'https://127.0.0.1/live', environment: 'live' as const };
    const options = { actor, allowPrivateNetworks: true };
    await refusedWithStepUpRequired(createWebhookEndpoint(workspaceId, live, options));
    expect(await listWebhookEndpoints(workspaceId)).toEqual([]);
    await createWebhookEndpoint(workspaceId, { url: 'http://127.0.0.1:9/test', environment: 'test' }, options);
    expect((await listWebhookEndpoints(workspaceId)).map((e) => e.environment)).toEqual(['test']);

    await stepUp({ actor, password: PASSWORD });
    await createWebhookEndpoint(workspaceId, live, options);
    const rows = await db().auditLog.findMany({
      where: { workspaceId, action: 'webhook_endpoint.created' },
      orderBy: { id: 'asc' },
    });
    expect(rows.map((r) => (r.details as { environment: string; step_up?: string }).step_up ?? null)).toEqual([
      null,
      'password',
    ]);
  });

  it('live key create: refused without a step-up and no key exists; a test key needs none', async () => {
    const { workspaceId, actor } = await signedIn();
    await refusedWithStepUpRequired(createApiKey(workspaceId, { label: 'live one', environment: 'live' }, actor));
    expect(await listApiKeys(workspaceId)).toEqual([]);
    expect(await auditActions(workspaceId)).not.toContain('key.created');

    const test = await createApiKey(workspaceId, { label: 'test one', environment: 'test' }, actor);
    expect(test.key.environment).toBe('test');
    await stepUp({ actor, password: PASSWORD });
    const live = await createApiKey(workspaceId, { label: 'live one', environment: 'live' }, actor);
    expect(live.secret).toMatch(/^live_/);
    const audit = await db().auditLog.findFirst({
      where: { workspaceId, action: 'key.created', target: `key ${live.key.id}` },
    });
    expect(audit?.details).toMatchObject({ environment: 'live', step_up: 'password' });
  });

  it('live key roll: refused without a step-up, the old key is untouched; a test key rolls without one', async () => {
    const { workspaceId, actor } = await signedIn();
    const live = await createApiKey(workspaceId, { label: 'live', environment: 'live' }); // operator-made
    const test = await createApiKey(workspaceId, { label: 'test', environment: 'test' });
    await refusedWithStepUpRequired(rollApiKey(live.key.id, workspaceId, 3600, actor));
    const keys = await listApiKeys(workspaceId);
    expect(keys).toHaveLength(2);
    expect(keys.find((k) => k.id === live.key.id)).toMatchObject({ expiresAt: null, rolledToId: null });
    expect(await auditActions(workspaceId)).not.toContain('key.rolled');

    await rollApiKey(test.key.id, workspaceId, 0, actor);
    await stepUp({ actor, password: PASSWORD });
    const rolled = await rollApiKey(live.key.id, workspaceId, 3600, actor);
    expect(rolled.secret).toMatch(/^live_/);
  });
});

describe('the step-up is bound to the session and expires', () => {
  it(`lasts ${STEP_UP_WINDOW_SECONDS} s: just inside it counts, just past it the change is refused`, async () => {
    const { workspaceId, actor, session } = await signedIn();
    await stepUp({ actor, password: PASSWORD });
    await ageStepUp(session.id, STEP_UP_WINDOW_SECONDS - 5);
    await setWallet(workspaceId, { network: 'polygon', address: POLYGON }, actor);
    await ageStepUp(session.id, STEP_UP_WINDOW_SECONDS + 1);
    await refusedWithStepUpRequired(setWallet(workspaceId, { network: 'polygon', address: ATTACKER }, actor));
    await refusedWithStepUpRequired(createApiKey(workspaceId, { label: 'late', environment: 'live' }, actor));
    expect((await listWallets(workspaceId)).map((w) => w.address)).toEqual([POLYGON]);
  });

  it("another session of the same user, a revoked session, another user's session, or no session id: refused", async () => {
    const { user, workspaceId, actor } = await signedIn();
    await stepUp({ actor, password: PASSWORD });
    const other = await createSession(user.id); // e.g. a stolen cookie of another device
    await refusedWithStepUpRequired(
      setWallet(workspaceId, { network: 'polygon', address: ATTACKER }, { ...actor, sessionId: other.id }),
    );
    await refusedWithStepUpRequired(
      setWallet(workspaceId, { network: 'polygon', address: ATTACKER }, { ...actor, sessionId: null }),
    );
    const stranger = await signedIn();
    await stepUp({ actor: stranger.actor, password: PASSWORD });
    await refusedWithStepUpRequired(
      setWallet(workspaceId, { network: 'polygon', address: ATTACKER }, { ...actor, sessionId: stranger.session.id }),
    );
    await revokeSession(actor.sessionId);
    await refusedWithStepUpRequired(setWallet(workspaceId, { network: 'polygon', address: ATTACKER }, actor));
    expect(await listWallets(workspaceId)).toEqual([]);
  });

  it('a wrong password gives no step-up; password guessing through the form is throttled per user', async () => {
    const { workspaceId, actor } = await signedIn();
    for (let i = 0; i < MAX_USER_PROOF_FAILURES; i++) {
      await expect(stepUp({ actor, password: `wrong ${i}` })).rejects.toMatchObject({ code: 'step_up_failed' });
    }
    // Beyond the budget even the right password is refused until the window ends.
    await expect(stepUp({ actor, password: PASSWORD })).rejects.toMatchObject({ code: 'too_many_attempts' });
    await refusedWithStepUpRequired(setWallet(workspaceId, { network: 'polygon', address: POLYGON }, actor));
  });

  it('the operator CLI (no portal user) is not asked', async () => {
    const { workspaceId } = await signedIn();
    expect(
      await db().$transaction((tx) => requireStepUp(tx, { userId: null, label: 'operator', ip: null })),
    ).toBeNull();
    await setWallet(workspaceId, { network: 'polygon', address: POLYGON });
  });
});

describe('accounts without a password (GitHub only)', () => {
  async function githubUser() {
    const jwt = authOptions().callbacks?.jwt;
    if (!jwt) throw new Error('no jwt callback');
    const providerAccountId = `gh-${randomUUID()}`;
    const user: User = { id: providerAccountId, email: 'octo@example.test', name: 'Octo' };
    const account: Account = { provider: 'github', type: 'oauth', providerAccountId, access_token: 'gho_fake' };
    const token = await jwt({ token: {}, user, account, profile: { login: 'octo' } as never, trigger: 'signIn' });
    const userId = String(token.uid);
    const sessionId = String(token.sid);
    const membership = await db().membership.findFirstOrThrow({ where: { userId } });
    return {
      userId,
      sessionId,
      workspaceId: membership.workspaceId,
      actor: { userId, label: 'octo', ip: null, sessionId } satisfies AuditActor,
    };
  }

  it('a sign-in through GitHub is no proof (GitHub cannot be made to re-authenticate); the form says to turn on two-factor', async () => {
    const { workspaceId, actor } = await githubUser();
    await refusedWithStepUpRequired(setWallet(workspaceId, { network: 'polygon', address: POLYGON }, actor));
    await expect(stepUp({ actor, password: 'anything' })).rejects.toMatchObject({
      code: 'step_up_failed',
      message: expect.stringMatching(/Turn on two-factor sign-in/),
    });
  });
});

describe('the overview lists recent security changes from the audit log', () => {
  it('wallet set then changed, and a live key; test keys are not listed', async () => {
    const { workspaceId, actor } = await signedIn();
    await stepUp({ actor, password: PASSWORD });
    await setWallet(workspaceId, { network: 'polygon', address: POLYGON }, actor);
    await setWallet(workspaceId, { network: 'polygon', address: ATTACKER }, actor);
    await createApiKey(workspaceId, { label: 'Checkout', environment: 'live' }, actor);
    await createApiKey(workspaceId, { label: 'Staging', environment: 'test' }, actor);
    await removeWallet(workspaceId, 'polygon', actor);
    const changes = await recentSecurityChanges(workspaceId);
    expect(changes.map((c) => c.summary)).toEqual([
      'Wallet for polygon removed',
      'Live key “Checkout” created',
      'Wallet for polygon changed',
      'Wallet for polygon added',
    ]);
    expect(changes[0]).toMatchObject({ actorLabel: actor.label, ip: '203.0.113.5' });
    // Older than the 7 days shown: gone from the overview (still in the audit log).
    expect(await recentSecurityChanges(workspaceId, new Date(Date.now() + 8 * 86_400_000))).toEqual([]);
  });
});
