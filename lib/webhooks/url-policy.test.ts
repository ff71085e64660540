import { describe, expect, it } from 'vitest';
import { AppError } from '../errors';
import { checkEndpointUrl, isPublicAddress } from './url-policy';

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
  it('refuses loopback, link-local, private and non-public addresses with a clear message', async () => {
    expect(await refusal('http://127.0.0.1/hook')).toMatch(/127\.0\.0\.1, which is not a public address/);
    expect(await refusal('http://[::1]/hook')).toMatch(/::1, which is not a public address/);
    expect(await refusal('http://169.254.169.254/latest/meta-data')).toMatch(/not a public address/);
    expect(await refusal('http://10.0.0.1/hook')).toMatch(/not a public address/);
    expect(await refusal('http://[::ffff:192.168.1.1]/hook')).toMatch(/not a public address/);
  });

  it('refuses a hostname that resolves to a private address (checked after resolution)', async () => {
    expect(await refusal('http://localhost:8080/hook')).toMatch(/localhost resolves to .*not a public address/);
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
    for (const address of ['127.0.0.1', '10.1.2.3', '172.16.0.1', '192.168.0.1', '100.64.0.1', '0.0.0.0', 'fe80::1', 'fd00::1', '::', '224.0.0.1']) {
      expect(isPublicAddress(address), address).toBe(false);
    }
  });
});
