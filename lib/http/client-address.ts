import { isIP } from 'node:net';
import { env } from '../env';

/**
 * The one rule for "which address is the client": every throttle, allowlist and log uses it.
 *
 * The app's HTTP server appends the TCP peer's address to X-Forwarded-For (as a proxy does), so the list
 * always ends with the socket address. Each trusted reverse proxy in front of the app appends one more
 * entry; the client is the entry `hops` places from the right. Entries further left were written by the
 * client itself and are never trusted. Returns null when the header is missing or the entry is not an IP.
 */
export function clientAddress(
  forwardedFor: string | null | undefined,
  hops: number = env().TRUSTED_PROXY_HOPS,
): string | null {
  if (!forwardedFor) return null;
  const entries = forwardedFor.split(',').map((entry) => entry.trim());
  const index = entries.length - 1 - hops;
  if (index < 0) return null;
  return normalizeAddress(entries[index] ?? '');
}

/** An IPv4 or IPv6 address in canonical form (IPv4-mapped IPv6 → IPv4), or null. */
export function normalizeAddress(raw: string): string | null {
  let address = raw.trim();
  if (address.startsWith('[') && address.includes(']')) address = address.slice(1, address.indexOf(']'));
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped?.[1]) address = mapped[1];
  const version = isIP(address);
  if (version === 0) return null;
  return version === 6 ? address.toLowerCase() : address;
}
