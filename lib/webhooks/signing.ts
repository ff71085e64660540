import { createHmac, randomBytes } from 'node:crypto';

/** Standard Webhooks (standardwebhooks.com) signing: secrets, headers and the signed content. */

const SECRET_PREFIX = 'whsec_';

/** `whsec_` + base64 of 32 random bytes. */
export function newSigningSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(32).toString('base64')}`;
}

/** `v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<body>">` with the secret's bytes (the base64 after whsec_). */
export function sign(secret: string, id: string, timestamp: number, body: string): string {
  const keyBytes = Buffer.from(
    secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret,
    'base64',
  );
  return `v1,${createHmac('sha256', keyBytes).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}

/** The three headers of one attempt; several secrets (during a roll) give space-separated signatures. */
export function webhookHeaders(
  secrets: readonly string[],
  id: string,
  timestamp: number,
  body: string,
): Record<string, string> {
  return {
    'content-type': 'application/json',
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': secrets.map((secret) => sign(secret, id, timestamp, body)).join(' '),
  };
}
