import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import { env } from '../env';
import { AppError } from '../errors';
import { ipv6Words } from '../http/ipv6';
import type { KeyEnvironment } from '../keys/api-key-secret';

export { ipv6Words };

/**
 * Where webhooks may be sent (docs/webhooks.md, SSRF): live endpoints need https, test endpoints may use http; no
 * credentials in the URL; every address the host resolves to must be public — checked when the endpoint is
 * saved and again at each delivery, after resolution, and the delivery connects to the address that was
 * checked (so DNS rebinding cannot reach the internal network). WEBHOOK_ALLOW_PRIVATE_NETWORKS=true lifts the
 * address rule for local receivers.
 */
export const MAX_WEBHOOK_URL_LENGTH = 2048;

const NON_PUBLIC = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8], // "this" network
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, cloud metadata
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const) {
  NON_PUBLIC.addSubnet(network, prefix, 'ipv4');
}

/**
 * IPv6 is an allowlist: only global unicast (2000::/3), minus the special-purpose blocks inside it (IANA IPv6
 * Special-Purpose Address Registry). Everything outside — loopback, IPv4-compatible (::a.b.c.d), IPv4-translated
 * (::ffff:0:a.b.c.d), site-local fec0::/10, unique local, link-local, multicast, discard, and NAT64 prefixes other
 * than the well-known one — is refused, whatever a denylist forgot. IPv6 forms that carry an IPv4 address the
 * packet ends up at (IPv4-mapped, NAT64 64:ff9b::/96, 6to4 2002::/16) are decoded and the IPv4 address is checked.
 */
const IPV6_SPECIAL_INSIDE_GLOBAL = new BlockList();
for (const [network, prefix] of [
  ['2001::', 23], // IETF protocol assignments: Teredo (2001::/32), benchmarking, ORCHID, AMT, …
  ['2001:db8::', 32], // documentation
  ['3fff::', 20], // documentation (RFC 9637)
  ['2620:4f:8000::', 48], // AS112 direct delegation
] as const) {
  IPV6_SPECIAL_INSIDE_GLOBAL.addSubnet(network, prefix, 'ipv6');
}

function ipv4Of(high: number, low: number): string {
  return `${high >> 8}.${high & 0xff}.${low >> 8}.${low & 0xff}`;
}

/** The IPv4 address an IPv6 address delivers to (IPv4-mapped, NAT64 well-known prefix, 6to4), if it is one. */
function embeddedIpv4(words: number[]): string | null {
  const [w0, w1, w2, w3, w4, w5, w6, w7] = words as [number, number, number, number, number, number, number, number];
  if (w0 === 0 && w1 === 0 && w2 === 0 && w3 === 0 && w4 === 0 && w5 === 0xffff) return ipv4Of(w6, w7); // ::ffff:a.b.c.d
  if (w0 === 0x64 && w1 === 0xff9b && w2 === 0 && w3 === 0 && w4 === 0 && w5 === 0) return ipv4Of(w6, w7); // 64:ff9b::/96
  if (w0 === 0x2002) return ipv4Of(w1, w2); // 6to4
  return null;
}

export function isPublicAddress(address: string): boolean {
  const version = isIP(address);
  if (version === 4) return !NON_PUBLIC.check(address, 'ipv4');
  const words = ipv6Words(address);
  if (!words) return false;
  const ipv4 = embeddedIpv4(words);
  if (ipv4) return isPublicAddress(ipv4);
  if ((words[0]! & 0xe000) !== 0x2000) return false; // outside 2000::/3
  return !IPV6_SPECIAL_INSIDE_GLOBAL.check(address, 'ipv6');
}

function refuse(message: string): never {
  throw new AppError('webhook_url_refused', message, { errors: [{ path: 'url', message }] });
}

/**
 * One answer for every destination refusal, whatever the host resolved to: telling a signed-in user which
 * address an internal name resolves to (or that it does not resolve) maps the operator's network for them. The
 * details go to the server log only.
 */
export const DESTINATION_REFUSED =
  "The URL's host is not a public address (or could not be resolved). Webhooks go to public addresses only; " +
  'an operator can set WEBHOOK_ALLOW_PRIVATE_NETWORKS=true (npm run dev does) to deliver to a local receiver.';

function refuseDestination(details: {
  host: string;
  address?: string;
  reason: 'unresolvable' | 'no_address' | 'not_public';
}): never {
  console.error(JSON.stringify({ level: 'warn', event: 'webhook_destination_refused', ...details }));
  refuse(DESTINATION_REFUSED);
}

/** Syntax rules of an endpoint URL for an environment; returns the normalized URL. */
export function checkUrlSyntax(raw: string, environment: KeyEnvironment): URL {
  if (raw.length > MAX_WEBHOOK_URL_LENGTH) refuse(`The URL is longer than ${MAX_WEBHOOK_URL_LENGTH} characters`);
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    refuse('Enter an absolute URL such as https://example.com/webhooks');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    refuse('The URL must start with https:// (or http:// for test endpoints)');
  if (environment === 'live' && url.protocol !== 'https:') refuse('Live endpoints must use https://');
  if (url.username || url.password) refuse('The URL must not contain a user name or password');
  if (url.hash) refuse('The URL must not contain a #fragment');
  return url;
}

/** The host without IPv6 brackets. */
function hostOf(url: URL): string {
  return url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
}

/**
 * Resolves the URL's host and checks every address; returns the address to connect to. Refuses with one
 * generic message (DESTINATION_REFUSED); which address it was is logged on the server.
 */
export async function resolveDestination(
  url: URL,
  allowPrivate: boolean = env().WEBHOOK_ALLOW_PRIVATE_NETWORKS,
): Promise<{ address: string; family: 4 | 6 }> {
  const host = hostOf(url);
  let addresses: Array<{ address: string; family: number }>;
  if (isIP(host)) {
    addresses = [{ address: host, family: isIP(host) }];
  } else {
    try {
      addresses = await lookup(host, { all: true, verbatim: true });
    } catch {
      refuseDestination({ host, reason: 'unresolvable' });
    }
  }
  if (addresses.length === 0) refuseDestination({ host, reason: 'no_address' });
  if (!allowPrivate) {
    const blocked = addresses.find((entry) => !isPublicAddress(entry.address));
    if (blocked) refuseDestination({ host, address: blocked.address, reason: 'not_public' });
  }
  const chosen = addresses[0]!;
  return { address: chosen.address, family: chosen.family === 6 ? 6 : 4 };
}

/** The full check made when an endpoint is saved. */
export async function checkEndpointUrl(
  raw: string,
  environment: KeyEnvironment,
  allowPrivate?: boolean,
): Promise<string> {
  const url = checkUrlSyntax(raw, environment);
  await resolveDestination(url, allowPrivate);
  return url.toString();
}
