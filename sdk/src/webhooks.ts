import { randomBytes, randomUUID } from 'node:crypto';
import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import { SignatureVerificationError } from './errors.js';
import type { Event } from './types.js';

/** Headers as a fetch `Headers`, or as Node's `req.headers` (lower-case names, possibly arrays). */
export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

export type SignedHeaders = {
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
};

export interface SignOptions {
  /** The body exactly as sent (a string, or an object to JSON-encode). */
  payload: string | object;
  /** `whsec_…`, as the portal shows it. */
  secret: string;
  /** webhook-id; default a fresh `msg_…`. For an event, its id. */
  id?: string;
  /** Default now. */
  timestamp?: Date;
}

function plainHeaders(headers: WebhookHeaders): Record<string, string> {
  const plain: Record<string, string> = {};
  if (typeof (headers as Headers).forEach === 'function' && typeof (headers as Headers).get === 'function') {
    (headers as Headers).forEach((value, name) => (plain[name.toLowerCase()] = value));
    return plain;
  }
  for (const [name, value] of Object.entries(headers as Record<string, string | string[] | undefined>)) {
    if (value !== undefined) plain[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return plain;
}

function text(body: string | Uint8Array): string {
  return typeof body === 'string' ? body : new TextDecoder().decode(body);
}

/** Webhook signatures per Standard Webhooks (standardwebhooks.com), with the reference library. */
export class Webhooks {
  /**
   * Checks a delivery and returns its event. `rawBody` must be the body exactly as received (not re-serialised
   * JSON). Throws SignatureVerificationError when a header is missing, no signature matches any of the request's
   * (two during a secret roll), or the timestamp is more than 5 minutes away from now (replays).
   */
  verify(rawBody: string | Uint8Array, headers: WebhookHeaders, secret: string): Event {
    let verified: unknown;
    try {
      verified = new Webhook(secret).verify(text(rawBody), plainHeaders(headers));
    } catch (error) {
      if (error instanceof WebhookVerificationError)
        throw new SignatureVerificationError(error.message, { cause: error });
      throw new SignatureVerificationError(`The webhook could not be verified: ${(error as Error).message}`, {
        cause: error,
      });
    }
    if (!verified || typeof verified !== 'object')
      throw new SignatureVerificationError('The webhook body is not an event');
    return verified as Event;
  }

  /** The three headers of a signed delivery, for receivers' own tests (and `listen`). */
  sign(options: SignOptions): SignedHeaders {
    const payload = typeof options.payload === 'string' ? options.payload : JSON.stringify(options.payload);
    const id = options.id ?? `msg_${randomUUID().replaceAll('-', '')}`;
    const timestamp = options.timestamp ?? new Date();
    return {
      'webhook-id': id,
      'webhook-timestamp': String(Math.floor(timestamp.getTime() / 1000)),
      'webhook-signature': new Webhook(options.secret).sign(id, timestamp, payload),
    };
  }

  /** A new signing secret: `whsec_` + base64 of 32 random bytes, the format the portal's secrets have. */
  generateSecret(): string {
    return `whsec_${randomBytes(32).toString('base64')}`;
  }
}

export const webhooks = new Webhooks();
