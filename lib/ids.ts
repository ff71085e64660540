import { randomInt } from 'node:crypto';

export const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** Uniformly random base62 string (randomInt has no modulo bias). */
export function randomBase62(length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) out += BASE62[randomInt(62)];
  return out;
}

const ID_PREFIXES = { invoice: 'inv', workspace: 'ws', user: 'usr', session: 'ses', request: 'req', payment: 'pay', event: 'evt', webhookEndpoint: 'we', oauthLinkIntent: 'lnk' } as const;

/** Prefixed random id, e.g. newId('invoice') → "inv_3kTz…" (24 random base62 chars ≈ 143 bits). */
export function newId(kind: keyof typeof ID_PREFIXES): string {
  return `${ID_PREFIXES[kind]}_${randomBase62(24)}`;
}
