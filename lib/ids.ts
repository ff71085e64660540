import { randomFillSync } from 'node:crypto';

export const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/**
 * Random bytes from the CSPRNG, drawn in 4 KiB refills (as Node's own randomInt and randomUUID cache theirs):
 * an id costs one pool read per character instead of one randomInt call each, which under Next also pays
 * Next's sync-IO tracking wrapper every time (≈ 3 ids per invoice create).
 */
const pool = Buffer.alloc(4096);
let poolOffset = pool.length;

function randomByte(): number {
  if (poolOffset === pool.length) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  return pool[poolOffset++]!;
}

/**
 * Uniformly random base62 string: bytes of 248 and above are dropped, so byte % 62 has no modulo bias
 * (248 = 4 × 62).
 */
export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    const byte = randomByte();
    if (byte < 248) out += BASE62[byte % 62];
  }
  return out;
}

const ID_PREFIXES = {
  invoice: 'inv',
  workspace: 'ws',
  user: 'usr',
  session: 'ses',
  request: 'req',
  payment: 'pay',
  event: 'evt',
  webhookEndpoint: 'we',
  oauthLinkIntent: 'lnk',
  invitation: 'ivt',
} as const;

/** Prefixed random id, e.g. newId('invoice') → "inv_3kTz…" (24 random base62 chars ≈ 143 bits). */
export function newId(kind: keyof typeof ID_PREFIXES): string {
  return `${ID_PREFIXES[kind]}_${randomBase62(24)}`;
}
