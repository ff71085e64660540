import { describe, expect, it, vi } from 'vitest';
import { AppError } from '../errors';
import { checkEndpointUrl, DESTINATION_REFUSED, ipv6Words, isPublicAddress } from './url-policy';

async function refusal(url: string, environment: 'test' | 'live' = 'test'): Promise<string> {
  try {
    await checkEndpointUrl(url, environment, false);
  } catch (error) {
    if (error instanceof AppError && error.code === 'webhook_url_refused') return error.message;
    throw error;
  }
  throw new Error(`${url} was accepted`);
}

describe('webhook URL rules (SSRF)', () => {
  it('refuses loopback, link-local, private and non-public addresses with one generic message', async () => {
    for (const url of [
      'http://127.0.0.1/hook',
      'http://[::1]/hook',
      'http://169.254.169.254/latest/meta-data',
      'http://10.0.0.1/hook',
      'http://[::ffff:192.168.1.1]/hook',
    ]) {
      expect(await refusal(url), url).toBe(DESTINATION_REFUSED);
    }
  });

  it('IPv6 forms that reach internal addresses are refused (allowlist: 2000::/3 minus special ranges; embedded IPv4 decoded)', async () => {
    for (const url of [
      'http://[::127.0.0.1]/', // IPv4-compatible
      'http://[::ffff:0:127.0.0.1]/', // IPv4-translated
      'http://[fec0::1]/', // site-local
      'http://[64:ff9b:1::a00:1]/', // local-use NAT64
      'http://[64:ff9b:1::5db8:d70e]/',
      'http://[64:ff9b::127.0.0.1]/', // NAT64 well-known prefix to loopback
      'http://[2002:7f00:1::]/', // 6to4 of 127.0.0.1
      'http://[2002:a9fe:a9fe::1]/', // 6to4 of 169.254.169.254
      'http://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/', // Teredo
      'http://[3fff::1]/', // documentation
      'http://[100::1]/', // discard
    ]) {
      expect(await refusal(url), url).toBe(DESTINATION_REFUSED);
    }
    for (const address of [
      '::7f00:1',
      '::ffff:0:7f00:1',
      'fec0::1',
      '64:ff9b:1::1',
      '2002:c0a8:101::1',
      '::',
      '::1',
      'ff02::1',
      'fe80::1%eth0',
    ]) {
      expect(isPublicAddress(address), address).toBe(false);
    }
    // Public ones pass, including IPv4 reached through IPv6 forms when that IPv4 is public.
    for (const address of [
      '2606:4700::1111',
      '2a00:1450:4001:80b::200e',
      '::ffff:93.184.215.14',
      '64:ff9b::5db8:d70e',
      '2002:5db8:d70e::1',
    ]) {
      expect(isPublicAddress(address), address).toBe(true);
    }
    expect(ipv6Words('::ffff:0:127.0.0.1')).toEqual([0, 0, 0, 0, 0xffff, 0, 0x7f00, 1]);
    expect(ipv6Words('1::2:3')).toEqual([1, 0, 0, 0, 0, 0, 2, 3]);
  });

  it('refuses a hostname that resolves to a private address (checked after resolution), without naming the address', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      const message = await refusal('http://localhost:8080/hook');
      expect(message).toBe(DESTINATION_REFUSED);
      expect(message).not.toMatch(/localhost|127\.0\.0\.1|::1/);
      // The details are in the server log.
      const logged = log.mock.calls
        .map((call) => String(call[0]))
        .find((line) => line.includes('webhook_destination_refused'));
      expect(JSON.parse(logged ?? '{}')).toMatchObject({
        host: 'localhost',
        reason: 'not_public',
        address: expect.stringMatching(/^(127\.0\.0\.1|::1)$/),
      });
      expect(await refusal('http://does-not-exist.invalid/hook')).toBe(DESTINATION_REFUSED);
    } finally {
      log.mockRestore();
    }
  });

  it('live endpoints need https; no credentials or non-http schemes', async () => {
    expect(await refusal('http://example.com/hook', 'live')).toMatch(/Live endpoints must use https/);
    expect(await refusal('https://user:pw@example.com/hook')).toMatch(/user name or password/);
    expect(await refusal('ftp://example.com/hook')).toMatch(/https:\/\//);
    expect(await refusal('not a url')).toMatch(/absolute URL/);
  });

  it('allows local receivers only when private networks are allowed', async () => {
    await expect(checkEndpointUrl('http://127.0.0.1:9/hook', 'test', true)).resolves.toBe('http://127.0.0.1:9/hook');
  });

  it('classifies addresses', () => {
    expect(isPublicAddress('93.184.215.14')).toBe(true);
    expect(isPublicAddress('2606:4700::1111')).toBe(true);
    for (const address of [
      '127.0.0.1',
      '10.1.2.3',
      '172.16.0.1',
      '192.168.0.1',
      '100.64.0.1',
      '0.0.0.0',
      'fe80::1',
      'fd00::1',
      '::',
      '224.0.0.1',
    ]) {
      expect(isPublicAddress(address), address).toBe(false);
    }
  });
});
