import QRCode from 'qrcode';
import type { AuditActor } from '../audit/audit';
import { recordUserAudit } from '../audit/sign-in';
import { db } from '../db';
import { AppError } from '../errors';
import { matchTotp, newRecoveryCodes, newTotpSecret, openTotpSecret, sealTotpSecret, totpUri } from './second-factor';
import { requireStepUp } from './step-up';

/**
 * Turning TOTP two-factor sign-in on and off. Each step needs a step-up (lib/auth/step-up.ts): a stolen
 * session must not be able to enrol its own authenticator (locking the owner out) or turn the factor off.
 *
 *  1. startEnrolment: a new secret, stored encrypted but not yet in force, shown as a QR code and as text;
 *  2. confirmEnrolment: a code from the app proves it was scanned; two-factor is on from then, and ten
 *     recovery codes are returned — the only time they exist in clear (stored as hashes);
 *  3. disable: removes the secret and the recovery codes.
 */
export interface Enrolment {
  /** Base32, for typing into an app by hand. */
  secret: string;
  uri: string;
  /** The otpauth:// URI as an SVG QR code (rendered on the server, no script needed). */
  qrSvg: string;
}

type PortalActor = AuditActor & { userId: string };

export async function startEnrolment(actor: PortalActor, account: string): Promise<Enrolment> {
  const secret = newTotpSecret();
  await db().$transaction(async (tx) => {
    // Adding the first factor: a GitHub-only account may do it right after a GitHub sign-in (lib/auth/step-up.ts).
    await requireStepUp(tx, actor, new Date(), { firstFactor: true });
    // Only while two-factor is off: a pending secret is replaced by a new one; an active one is never touched.
    const updated = await tx.user.updateMany({
      where: { id: actor.userId, totpEnabledAt: null },
      data: { totpSecretCiphertext: sealTotpSecret(secret), totpLastStep: null },
    });
    if (updated.count !== 1)
      throw new AppError(
        'two_factor_already_enabled',
        'Two-factor sign-in is already on. Turn it off first to use another authenticator.',
      );
  });
  const uri = totpUri(secret, account);
  const qrSvg = await QRCode.toString(uri, { type: 'svg', errorCorrectionLevel: 'M', margin: 1 });
  return { secret, uri, qrSvg };
}

export async function confirmEnrolment(
  actor: PortalActor,
  code: string,
  now = new Date(),
): Promise<{ recoveryCodes: string[] }> {
  const recovery = newRecoveryCodes();
  await db().$transaction(async (tx) => {
    const proof = await requireStepUp(tx, actor, now, { firstFactor: true });
    const [user] = await tx.$queryRaw<Array<{ totp_secret_ciphertext: string | null; totp_enabled_at: Date | null }>>`
      SELECT totp_secret_ciphertext, totp_enabled_at FROM users WHERE id = ${actor.userId} FOR UPDATE`;
    if (user?.totp_enabled_at) throw new AppError('two_factor_already_enabled', 'Two-factor sign-in is already on.');
    if (!user?.totp_secret_ciphertext)
      throw new AppError(
        'two_factor_not_enabled',
        'Start the enrolment first: no authenticator secret is waiting for confirmation.',
      );
    const step = matchTotp(openTotpSecret(user.totp_secret_ciphertext), code, now);
    if (step === null) {
      throw new AppError(
        'two_factor_code_invalid',
        'The code does not match. Enter the code your authenticator app shows now.',
        {
          errors: [{ path: 'code', message: 'The code does not match.' }],
        },
      );
    }
    await tx.user.update({
      where: { id: actor.userId },
      data: { totpEnabledAt: now, totpLastStep: step },
      select: { id: true },
    });
    await tx.recoveryCode.deleteMany({ where: { userId: actor.userId } });
    await tx.recoveryCode.createMany({
      data: recovery.hashes.map((codeHash) => ({ userId: actor.userId, codeHash, createdAt: now })),
    });
    await recordUserAudit(tx, actor.userId, {
      action: 'user.two_factor_enabled',
      actor,
      details: { step_up: proof?.method ?? null },
    });
  });
  return { recoveryCodes: recovery.codes };
}

export async function disableTwoFactor(actor: PortalActor): Promise<void> {
  await db().$transaction(async (tx) => {
    const proof = await requireStepUp(tx, actor);
    const updated = await tx.user.updateMany({
      where: { id: actor.userId, totpEnabledAt: { not: null } },
      data: { totpSecretCiphertext: null, totpEnabledAt: null, totpLastStep: null },
    });
    if (updated.count !== 1) throw new AppError('two_factor_not_enabled', 'Two-factor sign-in is not on.');
    await tx.recoveryCode.deleteMany({ where: { userId: actor.userId } });
    await recordUserAudit(tx, actor.userId, {
      action: 'user.two_factor_disabled',
      actor,
      details: { step_up: proof?.method ?? null },
    });
  });
}
