import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import { env } from '../env';
import { AppError } from '../errors';
import type { KeyEnvironment } from '../keys/api-key-secret';

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
// (IPv4-mapped IPv6 addresses are checked as the IPv4 address they carry, in isPublicAddress.)
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['64:ff9b::', 96], // NAT64
  ['100::', 64], // discard
  ['2001::', 23], // IETF protocol assignments (incl. Teredo)
  ['2001:db8::', 32], // documentation
  ['2002::', 16], // 6to4
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['ff00::', 8], // multicast
] as const) {
  NON_PUBLIC.addSubnet(network, prefix, 'ipv6');
}

export function isPublicAddress(address: string): boolean {
  const version = isIP(address);
  if (version === 0) return false;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped?.[1]) return isPublicAddress(mapped[1]);
  return !NON_PUBLIC.check(address, version === 4 ? 'ipv4' : 'ipv6');
}

function refuse(message: string): never {
  throw new AppError('webhook_url_refused', message, { errors: [{ path: 'url', message }] });
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
  if (url.protocol !== 'https:' && url.protocol !== 'http:') refuse('The URL must start with https:// (or http:// for test endpoints)');
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
 * Resolves the URL's host and checks every address; returns the address to connect to. Refuses with a
 * message that says which address was not public and how to allow it locally.
 */
export async function resolveDestination(url: URL, allowPrivate: boolean = env().WEBHOOK_ALLOW_PRIVATE_NETWORKS): Promise<{ address: string; family: 4 | 6 }> {
  const host = hostOf(url);
  let addresses: Array<{ address: string; family: number }>;
  if (isIP(host)) {
    addresses = [{ address: host, family: isIP(host) }];
  } else {
    try {
      addresses = await lookup(host, { all: true, verbatim: true });
    } catch {
      refuse(`The host ${host} could not be resolved`);
    }
  }
  if (addresses.length === 0) refuse(`The host ${host} has no address`);
  if (!allowPrivate) {
    const blocked = addresses.find((entry) => !isPublicAddress(entry.address));
    if (blocked) {
      refuse(
        `${host === blocked.address ? 'The address' : `The host ${host} resolves to`} ${blocked.address}, which is not a public address. ` +
          'Webhooks go to public addresses only (set WEBHOOK_ALLOW_PRIVATE_NETWORKS=true to deliver to a local receiver)',
      );
    }
  }
  const chosen = addresses[0]!;
  return { address: chosen.address, family: chosen.family === 6 ? 6 : 4 };
}

/** The full check made when an endpoint is saved. */
export async function checkEndpointUrl(raw: string, environment: KeyEnvironment, allowPrivate?: boolean): Promise<string> {
  const url = checkUrlSyntax(raw, environment);
  await resolveDestination(url, allowPrivate);
  return url.toString();
}
