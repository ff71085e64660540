import { describe, expect, it } from 'vitest';
import { isTronAddress, tronToBase58, tronToHex } from './address';

describe('Tron addresses (base58check ↔ hex, one module)', () => {
  // The real USDT contract: base58 as tronscan shows it, 41… hex as TRON's HTTP API shows it.
  const USDT = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
  const USDT_HEX = '0xa614f803b6fd780986a42c78ec9c7f77e6ded13c';

  it('converts both ways, from every accepted form', () => {
    expect(tronToHex(USDT)).toBe(USDT_HEX);
    expect(tronToBase58(USDT_HEX)).toBe(USDT);
    expect(tronToBase58(`41${USDT_HEX.slice(2)}`)).toBe(USDT);
    expect(tronToBase58(`0x41${USDT_HEX.slice(2).toUpperCase()}`)).toBe(USDT);
    expect(tronToBase58(USDT)).toBe(USDT);
  });

  it('refuses bad checksums, other prefixes and other shapes', () => {
    expect(isTronAddress(USDT)).toBe(true);
    expect(isTronAddress('TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6u')).toBe(false);
    expect(isTronAddress('1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2')).toBe(false);
    expect(isTronAddress('0x1234')).toBe(false);
    expect(() => tronToHex('tr7nhqjekqxgtci8q8zy4pl8otszgjlj6t')).toThrow(/not a Tron address/);
  });
});
