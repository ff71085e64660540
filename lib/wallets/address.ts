import { keccak_256 } from '@noble/hashes/sha3.js';
import { bech32, bech32m, createBase58check } from '@scure/base';
import { sha256 } from '@noble/hashes/sha2.js';
import { NETWORK_FAMILY, type Network, type NetworkFamily } from '../invoices/currencies';
import { bitcoinChain } from '../chain/bitcoin/chain';
import { bitcoinWalletError } from '../chain/bitcoin/keys';

// base58check with double SHA-256, as Bitcoin and Tron use it.
const b58c = createBase58check(sha256);

function toChecksumAddress(lowerHex40: string): string {
  const hash = Buffer.from(keccak_256(new TextEncoder().encode(lowerHex40))).toString('hex');
  let out = '0x';
  for (let i = 0; i < 40; i++) {
    const char = lowerHex40[i] as string;
    out += parseInt(hash[i] as string, 16) >= 8 ? char.toUpperCase() : char;
  }
  return out;
}

/** EVM: 0x + 40 hex; mixed case must be a valid EIP-55 checksum (all-lower or all-upper is accepted). */
function evmError(address: string): string | null {
  if (!/^0x[0-9a-fA-F]{40}$/.test(address)) return 'An EVM address is 0x followed by 40 hexadecimal characters';
  const body = address.slice(2);
  const mixed = body !== body.toLowerCase() && body !== body.toUpperCase();
  if (mixed && toChecksumAddress(body.toLowerCase()) !== address) return 'The address has an invalid EIP-55 checksum';
  return null;
}

/** Tron: base58check of 0x41 followed by a 20-byte account id; starts with T. */
function tronError(address: string): string | null {
  if (!/^T[1-9A-HJ-NP-Za-km-z]{33}$/.test(address)) return 'A Tron address starts with T and has 34 base58 characters';
  try {
    const payload = b58c.decode(address);
    if (payload.length !== 21 || payload[0] !== 0x41) return 'Not a Tron mainnet address';
  } catch {
    return 'The address has an invalid checksum';
  }
  return null;
}

/**
 * Bitcoin mainnet addresses: bech32 (segwit v0) / bech32m (v1+) with the bc prefix, or base58check P2PKH/P2SH. Not
 * a wallet (a Bitcoin wallet is an extended public key: lib/chain/bitcoin/keys.ts); the documented test address's form.
 */
export function bitcoinAddressError(address: string): string | null {
  const lower = address.toLowerCase();
  if (lower.startsWith('bc1')) {
    if (address !== lower && address !== address.toUpperCase())
      return 'A bech32 address must not mix upper and lower case';
    for (const codec of [bech32, bech32m]) {
      try {
        const { prefix, words } = codec.decode(lower as `${string}1${string}`);
        const version = words[0];
        if (prefix !== 'bc' || version === undefined) continue;
        const program = codec.fromWords(words.slice(1));
        if ((version === 0) !== (codec === bech32)) continue;
        if (version === 0 && program.length !== 20 && program.length !== 32) continue;
        if (version > 16 || program.length < 2 || program.length > 40) continue;
        return null;
      } catch {
        // try the other encoding
      }
    }
    return 'Not a valid bech32/bech32m Bitcoin address';
  }
  if (/^[13][1-9A-HJ-NP-Za-km-z]{25,34}$/.test(address)) {
    try {
      const payload = b58c.decode(address);
      if (payload.length === 21 && (payload[0] === 0x00 || payload[0] === 0x05)) return null;
    } catch {
      return 'The address has an invalid checksum';
    }
  }
  return 'A Bitcoin address is bech32 (bc1…) or base58 (1… or 3…)';
}

const VALIDATORS: Record<NetworkFamily, (address: string) => string | null> = {
  evm: evmError,
  tron: tronError,
  // An extended public key or wpkh() descriptor of BITCOIN_CHAIN: each invoice gets an address of its own.
  bitcoin: (wallet) => bitcoinWalletError(wallet, bitcoinChain()),
};

/** Returns a human message describing why the wallet is invalid for the network, or null when valid. */
export function walletAddressError(network: Network, address: string): string | null {
  return VALIDATORS[NETWORK_FAMILY[network]](address);
}

/**
 * The documented addresses every test invoice shows (never the workspace's wallet, docs/api.md). They are
 * valid in form but belong to nobody (all-zero account ids): never send real funds to them.
 */
export const TEST_PAY_ADDRESSES: Record<NetworkFamily, string> = {
  evm: '0x0000000000000000000000000000000000000000',
  tron: b58c.encode(new Uint8Array([0x41, ...new Array<number>(20).fill(0)])),
  bitcoin: bech32.encode('bc', [0, ...bech32.toWords(new Uint8Array(20))]),
};

/** The documented test address of a network: the only pay address a test invoice ever has. */
export function testPayAddress(network: Network): string {
  return TEST_PAY_ADDRESSES[NETWORK_FAMILY[network]];
}
