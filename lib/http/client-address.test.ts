import { describe, expect, it } from 'vitest';
import { clientAddress, normalizeAddress } from './client-address';

describe('clientAddress', () => {
  it('with no trusted proxy, is the right-most entry (the socket address the server appended)', () => {
    expect(clientAddress('6.6.6.6, 203.0.113.9', 0)).toBe('203.0.113.9');
    expect(clientAddress('203.0.113.9', 0)).toBe('203.0.113.9');
  });

  it('with one trusted proxy, is the entry that proxy appended, never what the client wrote', () => {
    expect(clientAddress('6.6.6.6, 198.51.100.7, 10.0.0.2', 1)).toBe('198.51.100.7');
    expect(clientAddress('10.0.0.2', 1)).toBeNull();
  });

  it('normalizes IPv4-mapped IPv6 and brackets, and refuses what is not an address', () => {
    expect(clientAddress('::ffff:127.0.0.1', 0)).toBe('127.0.0.1');
    expect(normalizeAddress('[2001:DB8::1]')).toBe('2001:db8::1');
    expect(clientAddress('not-an-ip', 0)).toBeNull();
    expect(clientAddress(undefined, 0)).toBeNull();
  });
});
