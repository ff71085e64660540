import { isIP } from 'node:net';
import { z } from 'zod';

/** At most this many entries on one key's IP allowlist. */
export const MAX_ALLOWED_IPS = 20;

/** Checks one entry's form: an IPv4 or IPv6 address, optionally with a prefix length (/0–32 or /0–128). */
export function cidrError(entry: string): string | null {
  const [address = '', prefix, ...rest] = entry.split('/');
  const version = isIP(address);
  if (version === 0 || rest.length > 0) return `${entry} is not an IPv4 or IPv6 address or CIDR range`;
  if (prefix === undefined) return null;
  const max = version === 4 ? 32 : 128;
  if (!/^\d{1,3}$/.test(prefix) || Number(prefix) > max) return `${entry}: the prefix length must be 0–${max}`;
  return null;
}

/**
 * The allowlist as a form or CLI sends it (comma, space or newline separated, or an array). Canonical form
 * (network address, explicit prefix) is computed by PostgreSQL when the key is written (lib/keys/keys.ts).
 */
export const AllowedIps = z.preprocess(
  (value) => (typeof value === 'string' ? value.split(/[\s,]+/).filter(Boolean) : value),
  z
    .array(z.string().trim().min(1))
    .max(MAX_ALLOWED_IPS, `At most ${MAX_ALLOWED_IPS} addresses or ranges`)
    .superRefine((entries, ctx) => {
      for (const entry of entries) {
        const problem = cidrError(entry);
        if (problem) ctx.addIssue({ code: 'custom', message: problem });
      }
    }),
);
