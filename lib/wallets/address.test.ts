import { describe, expect, it } from 'vitest';
import { bitcoinAddressError, TEST_PAY_ADDRESSES, walletAddressError } from './address';

describe('wallet address validation', () => {
  it('EVM: hex form, EIP-55 checksum when mixed case', () => {
    expect(walletAddressError('ethereum', '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed')).toBeNull();
    expect(walletAddressError('polygon', '0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed')).toBeNull();
    expect(walletAddressError('base', '0x5AAEB6053F3E94C9B9A09F33669435E7EF1BEAED')).toBeNull();
    expect(walletAddressError('ethereum', '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD')).toMatch(/checksum/);
    expect(walletAddressError('ethereum', '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeA')).toMatch(/40 hexadecimal/);
    expect(walletAddressError('ethereum', 'TJRabPrwbZy45sbavfcjinPJC18kjpRTv8')).not.toBeNull();
  });

  it('Tron: base58check T… addresses', () => {
    expect(walletAddressError('tron', 'TJRabPrwbZy45sbavfcjinPJC18kjpRTv8')).toBeNull();
    expect(walletAddressError('tron', 'TJRabPrwbZy45sbavfcjinPJC18kjpRTv9')).toMatch(/checksum|Tron/);
    expect(walletAddressError('tron', '0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed')).not.toBeNull();
  });

  it('Bitcoin address forms: bech32, bech32m and base58 mainnet addresses', () => {
    expect(bitcoinAddressError('bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4')).toBeNull();
    expect(bitcoinAddressError('bc1p5d7rjq7g6rdk2yhzks9smlaqtedr4dekq08ge8ztwac72sfr9rusxg3297')).toBeNull();
    expect(bitcoinAddressError('1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2')).toBeNull();
    expect(bitcoinAddressError('3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy')).toBeNull();
    expect(bitcoinAddressError('bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t5')).not.toBeNull();
    expect(bitcoinAddressError('1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN3')).not.toBeNull();
    expect(bitcoinAddressError('tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx')).not.toBeNull();
  });

  it('a Bitcoin wallet is an extended public key: a plain address is refused with the reason', () => {
    expect(walletAddressError('bitcoin', 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4')).toMatch(
      /single Bitcoin address.*address of its own/,
    );
    expect(walletAddressError('bitcoin', '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2')).toMatch(/single Bitcoin address/);
  });

  it('the documented test addresses are valid in form', () => {
    expect(walletAddressError('ethereum', TEST_PAY_ADDRESSES.evm)).toBeNull();
    expect(walletAddressError('tron', TEST_PAY_ADDRESSES.tron)).toBeNull();
    expect(bitcoinAddressError(TEST_PAY_ADDRESSES.bitcoin)).toBeNull();
  });
});
