import { HDKey } from '@scure/bip32';
import { describe, expect, it } from 'vitest';
import { descriptorChecksum } from './descriptor-checksum';
import { bitcoinWalletError, deriveAddress, firstAddresses, readBitcoinWallet } from './keys';

// BIP84's published test vectors (mnemonic "abandon … about"): the account m/84'/0'/0' as an extended private
// key; its extended public key is what a merchant enters, derived here from it by @scure/bip32.
const BIP84_ACCOUNT_ZPRV =
  'zprvAdG4iTXWBoARxkkzNpNh8r6Qag3irQB8PzEMkAFeTRXxHpbF9z4QgEvBRmfvqWvGp42t42nvgGpNgYSJA9iefm1yYNZKEm7z6qUWCroSQnE';
const BIP84_ACCOUNT_ZPUB =
  'zpub6rFR7y4Q2AijBEqTUquhVz398htDFrtymD9xYYfG1m4wAcvPhXNfE3EfH1r1ADqtfSdVCToUG868RvUUkgDKf31mGDtKsAYz2oz2AGutZYs';
const BIP84_FIRST = 'bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu';
const BIP84_SECOND = 'bc1qnjg0jd8228aq7egyzacy8cys3knf9xvrerkf9g';

// A testnet wpkh() descriptor with key origin and checksum, as wallets export it (bdk's vector).
const TEST_DESCRIPTOR =
  "wpkh([a42c6dd3/84'/1'/0']tpubDDnGNapGEY6AZAdQbfRJgMg9fvz8pUBrLwvyvUqEgcUfgzM6zc2eVK4vY9x9L5FJWdX8WumXuLEDV5zDZnTfbn87vLe9XceCFwTu9so9Kks/0/*)#p3rdl64r";

describe('Bitcoin wallet keys', () => {
  it('derives the BIP84 test vectors from the account zpub (and the same key written as an xpub)', () => {
    const zpub = HDKey.fromExtendedKey(BIP84_ACCOUNT_ZPRV, {
      public: 0x04b24746,
      private: 0x04b2430c,
    }).publicExtendedKey;
    expect(zpub).toBe(BIP84_ACCOUNT_ZPUB);
    const wallet = readBitcoinWallet(zpub, 'main');
    expect(deriveAddress(wallet, 0, 'main')).toEqual({
      index: 0,
      address: BIP84_FIRST,
      scriptPubKey: '0014c0cebcd6c3d3ca8c75dc5ec62ebe55330ef910e2',
    });
    expect(deriveAddress(wallet, 1, 'main').address).toBe(BIP84_SECOND);
    // The xpub form of the same key is the same wallet (one index sequence, the same addresses).
    const asXpub = readBitcoinWallet(wallet.accountKey, 'main');
    expect(asXpub.accountKey).toBe(wallet.accountKey);
    expect(wallet.accountKey.startsWith('xpub')).toBe(true);
    expect(deriveAddress(asXpub, 1, 'main').address).toBe(BIP84_SECOND);
  });

  it('reads a wpkh() descriptor with origin and checksum; regtest addresses are bcrt1', () => {
    const addresses = firstAddresses(TEST_DESCRIPTOR, 'regtest');
    expect(addresses.map((a) => a.index)).toEqual([0, 1, 2]);
    for (const a of addresses) expect(a.address).toMatch(/^bcrt1q[a-z0-9]{38}$/);
    expect(firstAddresses(TEST_DESCRIPTOR, 'test')[0]!.address).toMatch(/^tb1q/);
    // The same key without the descriptor gives the same addresses.
    const bare = TEST_DESCRIPTOR.slice(TEST_DESCRIPTOR.indexOf(']') + 1, TEST_DESCRIPTOR.indexOf('/0/*'));
    expect(firstAddresses(bare, 'regtest')).toEqual(addresses);
    // Multipath receive/change form: the receive branch.
    expect(firstAddresses(`wpkh(${bare}/<0;1>/*)`, 'regtest')).toEqual(addresses);
  });

  it("the descriptor checksum is BIP-380's (published vectors)", () => {
    expect(descriptorChecksum('raw(deadbeef)')).toBe('89f8spxm');
    expect(descriptorChecksum(TEST_DESCRIPTOR.split('#')[0]!)).toBe('p3rdl64r');
    expect(
      descriptorChecksum(
        'wpkh([34a102c3/84h/0h/0h]xpub6CFJPLavEUpbmhSsihixZ3BLuWiALj1tyt59kW8mNV44j5VYjXU9S9AzAFcqwvZXZhemHFbFhzviF7rgvhcT3sBWEDZE9g2i7rDb3LjjeES/<0;1>/*)',
      ),
    ).toBe('lh26753l');
  });

  it('refuses, with the reason: plain addresses, private keys, other chains, other address types, bad checksums', () => {
    expect(bitcoinWalletError(BIP84_FIRST, 'main')).toMatch(/single Bitcoin address/);
    expect(bitcoinWalletError('bcrt1qh9ruph54tnfveh7dtve3nrfx26p56rx4zuxz40', 'regtest')).toMatch(
      /single Bitcoin address/,
    );
    expect(bitcoinWalletError(BIP84_ACCOUNT_ZPRV, 'main')).toMatch(/PRIVATE key/);
    expect(bitcoinWalletError(BIP84_ACCOUNT_ZPUB, 'regtest')).toMatch(/mainnet key.*regtest.*vpub or tpub/);
    expect(bitcoinWalletError(TEST_DESCRIPTOR, 'main')).toMatch(/testnet key.*mainnet/);
    expect(bitcoinWalletError(`${BIP84_ACCOUNT_ZPUB.slice(0, -1)}t`, 'main')).toMatch(/checksum/);
    expect(bitcoinWalletError(TEST_DESCRIPTOR.replace('#p3rdl64r', '#p3rdl64q'), 'regtest')).toMatch(/checksum/);
    expect(bitcoinWalletError(TEST_DESCRIPTOR.replace('/0/*', '/1/*').split('#')[0]!, 'regtest')).toMatch(
      /receive branch/,
    );
    expect(bitcoinWalletError(TEST_DESCRIPTOR.replace('/0/*', '').split('#')[0]!, 'regtest')).toMatch(/ranged/);
    expect(bitcoinWalletError(TEST_DESCRIPTOR.replace('wpkh(', 'pkh(').split('#')[0]!, 'regtest')).toMatch(/Only wpkh/);
    expect(
      bitcoinWalletError(
        'ypub6Ww3ibxVfGzLrAH1PNcjyAWenMTbbAosGNB6VvmSEgytSER9azLDWCxoJwW7Ke7icmizBMXrzBx9979FfaHxHcrArf3zbeJJJUZPf663zsP',
        'main',
      ),
    ).toMatch(/BIP49/);
    expect(bitcoinWalletError('hello', 'main')).toMatch(/extended public key/);
  });
});
