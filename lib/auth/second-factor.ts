import { createHash, randomInt } from 'node:crypto';
import { generateSecret, generateURI, verifySync } from 'otplib';
import { db } from '../db';
import { publicUrl } from '../env';
// The app's at-rest cipher (AES-256-GCM, key WEBHOOK_ENCRYPTION_KEY or .data/webhook-key). It lives in
// lib/webhooks because webhook secrets were its first use; it is reused here rather than copied.
import { openSecret, sealSecret } from '../crypto/secret-box';
import { beginUserProof, userProofSucceeded } from './throttle';

/**
 * The second factor of a password (TOTP, RFC 6238: SHA-1, 6 digits, 30-second steps — what every authenticator
 * app reads from an otpauth:// QR code) and its recovery codes. Verification only; turning it on and off is
 * lib/auth/two-factor.ts, which needs a step-up.
 */
export type SecondFactor = 'totp' | 'recovery_code';

/** A code of the step before or after the current one is accepted (clock drift between phone and server). */
const TOTP_TOLERANCE_SECONDS = 30;
export const RECOVERY_CODE_COUNT = 10;
/** 32 letters and digits without look-alikes (0/o, 1/l): 5 bits per character, 16 characters = 80 bits. */
const RECOVERY_ALPHABET = 'abcdefghijkmnpqrstuvwxyz23456789';
const RECOVERY_CODE_LENGTH = 16;

export function newTotpSecret(): string {
  return generateSecret({ length: 20 }); // 160 bits, RFC 4226's recommendation; base32 for the apps
}

/** The otpauth:// URI an authenticator app scans: issuer = this deployment's host, account = the user's email. */
export function totpUri(secret: string, account: string): string {
  return generateURI({ issuer: `Developer portal (${new URL(publicUrl()).host})`, label: account, secret });
}

export function sealTotpSecret(secret: string): string {
  return sealSecret(secret);
}

export function openTotpSecret(sealed: string): string {
  return openSecret(sealed);
}

/** Digits only (spaces and dashes dropped): what a person types from an app shows "123 456". */
function normalizeTotp(raw: string): string | null {
  const digits = raw.replace(/[\s-]/g, '');
  return /^\d{6}$/.test(digits) ? digits : null;
}

/** The time step whose code `raw` is (current, or one either side), or null. */
export function matchTotp(secret: string, raw: string, now = new Date()): number | null {
  const token = normalizeTotp(raw);
  if (!token || !secret) return null;
  const result = verifySync({
    secret,
    token,
    epochTolerance: TOTP_TOLERANCE_SECONDS,
    epoch: Math.floor(now.getTime() / 1000),
  });
  return result.valid && 'timeStep' in result ? result.timeStep : null;
}

function sha256(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

/** Lower case, separators dropped: "ABCD-efgh jkmn-pqrs" and "abcdefghjkmnpqrs" are the same code. */
function normalizeRecoveryCode(raw: string): string | null {
  const code = raw.toLowerCase().replace(/[\s-]/g, '');
  return code.length === RECOVERY_CODE_LENGTH && [...code].every((c) => RECOVERY_ALPHABET.includes(c)) ? code : null;
}

/**
 * Ten codes as a person reads them ("abcd-efgh-jkmn-pqrs") and what is stored of them: SHA-256 of the normalised
 * code. A fast hash is enough: each code carries 80 random bits, beyond any guessing of the stored hashes.
 */
export function newRecoveryCodes(): { codes: string[]; hashes: string[] } {
  const raw = Array.from({ length: RECOVERY_CODE_COUNT }, () =>
    Array.from({ length: RECOVERY_CODE_LENGTH }, () =>
      RECOVERY_ALPHABET.charAt(randomInt(RECOVERY_ALPHABET.length)),
    ).join(''),
  );
  return { codes: raw.map((code) => code.replace(/(.{4})(?!$)/g, '$1-')), hashes: raw.map(sha256) };
}

/** The stored form of a typed recovery code, or null when it cannot be one. */
export function hashRecoveryCode(raw: string): string | null {
  const code = normalizeRecoveryCode(raw);
  return code ? sha256(code) : null;
}

/**
 * The secret, or '' when it cannot be decrypted (the at-rest key was changed or lost): no TOTP code then matches,
 * and a recovery code — checked without the secret — still signs the user in.
 */
function readableSecret(sealed: string): string {
  try {
    return openTotpSecret(sealed);
  } catch {
    console.error(
      JSON.stringify({
        level: 'error',
        event: 'totp_secret_unreadable',
        message: 'WEBHOOK_ENCRYPTION_KEY cannot open a stored TOTP secret',
      }),
    );
    return '';
  }
}

export type SecondFactorCheck = { ok: true; factor: SecondFactor } | { ok: false; reason: 'invalid' | 'throttled' };

/**
 * Checks a TOTP code or a recovery code of a user with two-factor sign-in on (at sign-in and at step-up).
 * Throttled per user (lib/auth/throttle.ts, `second_factor`). A TOTP code is accepted once: its time step must
 * be later than the last accepted one (one compare-and-set), so a code seen over a shoulder cannot be replayed.
 * A recovery code is used up by a compare-and-set too: of two concurrent uses, one wins.
 */
export async function verifySecondFactor(userId: string, raw: string, now = new Date()): Promise<SecondFactorCheck> {
  if (!(await beginUserProof('second_factor', userId, now))) return { ok: false, reason: 'throttled' };
  const user = await db().user.findUnique({
    where: { id: userId },
    select: { totpSecretCiphertext: true, totpEnabledAt: true },
  });
  if (!user?.totpEnabledAt || !user.totpSecretCiphertext) return { ok: false, reason: 'invalid' };

  let factor: SecondFactor | null = null;
  const step = matchTotp(readableSecret(user.totpSecretCiphertext), raw, now);
  if (step !== null) {
    const accepted = await db().$executeRaw`
      UPDATE users SET totp_last_step = ${step}
      WHERE id = ${userId} AND totp_enabled_at IS NOT NULL AND (totp_last_step IS NULL OR totp_last_step < ${step})`;
    if (accepted === 1) factor = 'totp';
  } else {
    const hash = hashRecoveryCode(raw);
    if (hash) {
      const used = await db().$executeRaw`
        UPDATE recovery_codes SET used_at = ${now} WHERE user_id = ${userId} AND code_hash = ${hash} AND used_at IS NULL`;
      if (used === 1) factor = 'recovery_code';
    }
  }
  if (!factor) return { ok: false, reason: 'invalid' };
  await userProofSucceeded('second_factor', userId);
  return { ok: true, factor };
}

/** Whether the user has two-factor sign-in on, and how many recovery codes are left. */
export async function twoFactorStatus(
  userId: string,
): Promise<{ enabled: boolean; enabledAt: Date | null; recoveryCodesLeft: number }> {
  const [user, left] = await Promise.all([
    db().user.findUnique({ where: { id: userId }, select: { totpEnabledAt: true } }),
    db().recoveryCode.count({ where: { userId, usedAt: null } }),
  ]);
  return {
    enabled: Boolean(user?.totpEnabledAt),
    enabledAt: user?.totpEnabledAt ?? null,
    recoveryCodesLeft: user?.totpEnabledAt ? left : 0,
  };
}
