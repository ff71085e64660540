import { createHash, randomUUID } from 'node:crypto';
import { generateSync } from 'otplib';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { describe, expect, it } from 'vitest';
import type { AuditActor } from '../audit/audit';
import { db } from '../db';
import { tronAddressOf } from '../wallets/ownership/verifiers';
import { setWallet } from '../wallets/wallets';
import { createUserWithWorkspace } from '../workspaces/workspaces';
import { verifyCredentials } from './credentials';
import { changePassword } from './password-change';
import { verifySecondFactor } from './second-factor';
import { createSession } from './sessions';
import { stepUp } from './step-up';
import { MAX_USER_PROOF_FAILURES } from './throttle';
import { confirmEnrolment, disableTwoFactor, startEnrolment } from './two-factor';

// docs/portal.md: optional TOTP two-factor sign-in, against the real database (codes computed with otplib, as an
// authenticator app would). Sign-in over HTTP: tests/accounts/two-factor-http.test.ts; the portal: e2e.

const PASSWORD = 'correct horse battery';
const STEP = 30_000;

/** The code an app shows `steps` 30-second steps from now (one step either side is accepted). */
function code(secret: string, steps = 0): string {
  return generateSync({ secret, epoch: Math.floor((Date.now() + steps * STEP) / 1000) });
}

function newAddress(): string {
  return `2001:db8::${randomUUID().slice(0, 4)}:${randomUUID().slice(0, 4)}`;
}

async function signedIn() {
  const email = `totp-${randomUUID()}@example.test`;
  const { user, workspace } = await createUserWithWorkspace({ email, password: PASSWORD });
  const session = await createSession(user.id);
  const actor = { userId: user.id, label: email, ip: null, sessionId: session.id } satisfies AuditActor;
  return { email, userId: user.id, workspaceId: workspace.id, session, actor };
}

/** Enrolled with a step-up; the code of the current step is used up by the confirmation. */
async function enrolled() {
  const account = await signedIn();
  await stepUp({ actor: account.actor, password: PASSWORD });
  const { secret } = await startEnrolment(account.actor, account.email);
  const { recoveryCodes } = await confirmEnrolment(account.actor, code(secret));
  return { ...account, secret, recoveryCodes };
}

describe('enrolment', () => {
  it('needs a step-up, shows the secret as a QR code and text, and turns on only with a right code', async () => {
    const { email, actor, userId, workspaceId } = await signedIn();
    await expect(startEnrolment(actor, email)).rejects.toMatchObject({ code: 'step_up_required' });
    await stepUp({ actor, password: PASSWORD });
    const enrolment = await startEnrolment(actor, email);
    expect(enrolment.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(enrolment.uri).toMatch(/^otpauth:\/\/totp\/.+\?secret=[A-Z2-7]{32}&issuer=/);
    expect(enrolment.qrSvg).toMatch(/^<svg[\s\S]*<\/svg>\s*$/);

    await expect(confirmEnrolment(actor, '000000')).rejects.toMatchObject({ code: 'two_factor_code_invalid' });
    expect((await verifyCredentials(email, PASSWORD, newAddress())).outcome).toBe('ok'); // not on yet

    const { recoveryCodes } = await confirmEnrolment(actor, code(enrolment.secret));
    expect(recoveryCodes).toHaveLength(10);
    for (const recovery of recoveryCodes) expect(recovery).toMatch(/^[a-z2-9]{4}(-[a-z2-9]{4}){3}$/);
    expect(new Set(recoveryCodes).size).toBe(10);

    // At rest: the secret encrypted (not the base32 text), recovery codes as SHA-256 hashes only.
    const [row] = await db().$queryRaw<Array<{ totp_secret_ciphertext: string; totp_enabled_at: Date | null }>>`
      SELECT totp_secret_ciphertext, totp_enabled_at FROM users WHERE id = ${userId}`;
    expect(row?.totp_enabled_at).toBeInstanceOf(Date);
    expect(row?.totp_secret_ciphertext).toMatch(/^v1\./);
    expect(row?.totp_secret_ciphertext).not.toContain(enrolment.secret);
    const stored = await db().recoveryCode.findMany({ where: { userId }, select: { codeHash: true } });
    const expected = recoveryCodes.map((c) => createHash('sha256').update(c.replaceAll('-', '')).digest('hex'));
    expect(stored.map((s) => s.codeHash).sort()).toEqual(expected.sort());
    expect(JSON.stringify(stored)).not.toContain(recoveryCodes[0]?.slice(0, 4));

    await expect(startEnrolment(actor, email)).rejects.toMatchObject({ code: 'two_factor_already_enabled' });
    const audit = await db().auditLog.findFirst({ where: { workspaceId, action: 'user.two_factor_enabled' } });
    expect(audit?.details).toMatchObject({ step_up: 'password' });
  });
});

describe('sign-in with two-factor on', () => {
  it('the right password alone asks for a code; a wrong code is refused; the right code signs in', async () => {
    const { email, secret } = await enrolled();
    const address = newAddress();
    expect(await verifyCredentials(email, PASSWORD, address)).toEqual({ outcome: 'code_required' });
    expect(await verifyCredentials(email, PASSWORD, address, '123456')).toEqual({ outcome: 'code_invalid' });
    // A wrong password with a code is just a wrong password (the code is never looked at).
    expect(await verifyCredentials(email, 'wrong password', address, code(secret, 1))).toEqual({ outcome: 'invalid' });
    expect(await verifyCredentials(email, PASSWORD, address, code(secret, 1))).toMatchObject({
      outcome: 'ok',
      secondFactor: 'totp',
    });
  });

  it('a code is accepted once: replaying it, or an older step, is refused', async () => {
    const { email, secret } = await enrolled();
    const next = code(secret, 1);
    expect((await verifyCredentials(email, PASSWORD, newAddress(), next)).outcome).toBe('ok');
    expect((await verifyCredentials(email, PASSWORD, newAddress(), next)).outcome).toBe('code_invalid');
    // The current step's code was used by the enrolment, and is older than the one just used.
    expect((await verifyCredentials(email, PASSWORD, newAddress(), code(secret))).outcome).toBe('code_invalid');
  });

  it('a recovery code signs in once; used again it is refused; others still work', async () => {
    const { email, recoveryCodes, userId } = await enrolled();
    const [first, second] = recoveryCodes;
    expect(await verifyCredentials(email, PASSWORD, newAddress(), first ?? '')).toMatchObject({
      outcome: 'ok',
      secondFactor: 'recovery_code',
    });
    expect((await verifyCredentials(email, PASSWORD, newAddress(), first ?? '')).outcome).toBe('code_invalid');
    // Typed without dashes and in capitals: the same code.
    expect(
      (await verifyCredentials(email, PASSWORD, newAddress(), (second ?? '').replaceAll('-', '').toUpperCase()))
        .outcome,
    ).toBe('ok');
    expect(await db().recoveryCode.count({ where: { userId, usedAt: null } })).toBe(8);
  });

  it('two concurrent uses of one recovery code: exactly one wins', async () => {
    const { userId, recoveryCodes } = await enrolled();
    const results = await Promise.all([
      verifySecondFactor(userId, recoveryCodes[2] ?? ''),
      verifySecondFactor(userId, recoveryCodes[2] ?? ''),
    ]);
    expect(results.filter((r) => r.ok)).toHaveLength(1);
  });

  it(`code guessing is throttled per user: after ${MAX_USER_PROOF_FAILURES} wrong codes even the right one is refused`, async () => {
    const { email, secret } = await enrolled();
    for (let i = 0; i < MAX_USER_PROOF_FAILURES; i++) {
      expect((await verifyCredentials(email, PASSWORD, newAddress(), String(100000 + i))).outcome).toBe('code_invalid');
    }
    expect((await verifyCredentials(email, PASSWORD, newAddress(), code(secret, 1))).outcome).toBe('throttled');
  });
});

describe('step-up and password change with two-factor on', () => {
  it('the step-up asks for a code too: the password alone is not enough', async () => {
    const { actor, secret, workspaceId } = await enrolled();
    const second = await createSession(actor.userId);
    const fresh = { ...actor, sessionId: second.id };
    await expect(stepUp({ actor: fresh, password: PASSWORD })).rejects.toMatchObject({ code: 'step_up_failed' });
    await expect(stepUp({ actor: fresh, password: PASSWORD, code: '000000' })).rejects.toMatchObject({
      code: 'step_up_failed',
    });
    await expect(
      setWallet(workspaceId, { network: 'tron', address: 'TJRabPrwbZy45sbavfcjinPJC18kjpRTv8' }, fresh),
    ).rejects.toMatchObject({ code: 'step_up_required' });
    expect((await stepUp({ actor: fresh, password: PASSWORD, code: code(secret, 1) })).method).toBe('password+totp');
    await setWallet(
      workspaceId,
      { network: 'tron', address: tronAddressOf(privateKeyToAccount(generatePrivateKey()).address) },
      fresh,
    );
  });

  it('a password change needs the code as well', async () => {
    const { actor, recoveryCodes } = await enrolled();
    const change = {
      userId: actor.userId,
      keepSessionId: actor.sessionId,
      currentPassword: PASSWORD,
      newPassword: 'violet kettle drums',
    };
    await expect(changePassword(change)).rejects.toMatchObject({ code: 'two_factor_code_invalid' });
    expect(await changePassword({ ...change, code: recoveryCodes[0] })).toEqual({ endedSessions: 0 });
  });
});

describe('turning two-factor off', () => {
  it('needs a step-up with a code; afterwards the password alone signs in and the recovery codes are gone', async () => {
    const { email, actor, recoveryCodes, userId, session } = await enrolled();
    // The enrolment's step-up (password only, before two-factor was on) has run out.
    await db().session.update({ where: { id: session.id }, data: { steppedUpAt: new Date(Date.now() - 10 * 60_000) } });
    await expect(disableTwoFactor(actor)).rejects.toMatchObject({ code: 'step_up_required' });
    await stepUp({ actor, password: PASSWORD, code: recoveryCodes[0] });
    await disableTwoFactor(actor);
    expect((await verifyCredentials(email, PASSWORD, newAddress())).outcome).toBe('ok');
    expect(await db().recoveryCode.count({ where: { userId } })).toBe(0);
    await expect(disableTwoFactor(actor)).rejects.toMatchObject({ code: 'two_factor_not_enabled' });
  });
});
