import { sha256 } from '@noble/hashes/sha2.js';
import { createBase58check } from '@scure/base';

/**
 * Tron addresses, the one place they are converted (docs/settlement.md, "Tron"). An account or contract is 21
 * bytes: 0x41 then the 20-byte id an EVM address would be. People and wallets read base58check of those 21 bytes
 * (`T…`); TRON's JSON-RPC filters take the 20 bytes as hex (`0x…`, or `41…` hex). The app stores, shows and
 * matches base58 only; the watcher converts to hex for the RPC and back for what it records.
 */

const b58c = createBase58check(sha256);
const PREFIX = 0x41;

export class TronAddressError extends Error {
  constructor(value: string, why: string) {
    super(`not a Tron address (${why}): ${value}`);
    this.name = 'TronAddressError';
  }
}

function fromHex(hex: string): Uint8Array {
  return Uint8Array.from(hex.match(/../g)!.map((pair) => parseInt(pair, 16)));
}

const toHex = (bytes: Uint8Array) => Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');

/** The 21-byte account id of a base58 (`T…`), `41…` hex or `0x` + 40 hex address; throws on anything else. */
function accountBytes(value: string): Uint8Array {
  const text = value.trim();
  if (/^(0x)?41[0-9a-fA-F]{40}$/.test(text)) return fromHex(text.replace(/^0x/, ''));
  if (/^0x[0-9a-fA-F]{40}$/.test(text)) return Uint8Array.of(PREFIX, ...fromHex(text.slice(2)));
  if (!/^T[1-9A-HJ-NP-Za-km-z]{33}$/.test(text))
    throw new TronAddressError(value, 'expected T… base58, 41… hex or 0x hex');
  let payload: Uint8Array;
  try {
    payload = b58c.decode(text);
  } catch {
    throw new TronAddressError(value, 'bad checksum');
  }
  if (payload.length !== 21 || payload[0] !== PREFIX) throw new TronAddressError(value, 'not a mainnet account');
  return payload;
}

// The watcher converts the same few addresses (wallets, senders) over and over: each conversion is two SHA-256,
// so results are remembered, up to a bound.
const MEMO_LIMIT = 50_000;
const base58Memo = new Map<string, string>();
const hexMemo = new Map<string, `0x${string}`>();

function remember<T>(memo: Map<string, T>, key: string, value: T): T {
  if (memo.size >= MEMO_LIMIT) memo.clear();
  memo.set(key, value);
  return value;
}

/** Base58check (`T…`) of any accepted form: what is stored, shown and matched. */
export function tronToBase58(value: string): string {
  return base58Memo.get(value) ?? remember(base58Memo, value, b58c.encode(accountBytes(value)));
}

/** `0x` + 40 lower-case hex: the form TRON's JSON-RPC takes in filters and returns in logs. */
export function tronToHex(value: string): `0x${string}` {
  return hexMemo.get(value) ?? remember(hexMemo, value, `0x${toHex(accountBytes(value).slice(1))}` as `0x${string}`);
}

/** True when `value` is a Tron address in one of the accepted forms. */
export function isTronAddress(value: string): boolean {
  try {
    accountBytes(value);
    return true;
  } catch {
    return false;
  }
}
