import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { env } from '../env';
import { localSecret } from '../local-secret';

/**
 * Secrets the app must read back are encrypted at rest (AES-256-GCM), never hashed: webhook signing secrets
 * (the worker signs with them) and TOTP secrets (sign-in checks codes against them). The key is
 * WEBHOOK_ENCRYPTION_KEY — named for its first use, kept so existing configurations still open their secrets —
 * or one generated once into .data/webhook-key; the web server and the worker read the same one.
 * Stored form: v1.<iv>.<tag>.<ciphertext>, base64url.
 */
function key(): Buffer {
  // Any configured string works: it is hashed to the cipher's 32 bytes.
  const configured = localSecret('webhook-key', env().WEBHOOK_ENCRYPTION_KEY);
  if (derived?.from !== configured)
    derived = { from: configured, key: createHash('sha256').update(configured).digest() };
  return derived.key;
}
let derived: { from: string; key: Buffer } | undefined;

export function sealSecret(plaintext: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key(), iv);
  const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return [
    'v1',
    iv.toString('base64url'),
    cipher.getAuthTag().toString('base64url'),
    ciphertext.toString('base64url'),
  ].join('.');
}

export function openSecret(sealed: string): string {
  const [version, iv, tag, ciphertext] = sealed.split('.');
  if (version !== 'v1' || !iv || !tag || ciphertext === undefined) throw new Error('unreadable sealed webhook secret');
  const decipher = createDecipheriv('aes-256-gcm', key(), Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
}
