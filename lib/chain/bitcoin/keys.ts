import { HDKey, type Versions } from '@scure/bip32';
import { Address, p2wpkh } from '@scure/btc-signer';
import { hex } from '@scure/base';
import { descriptorChecksum } from './descriptor-checksum';
import { ADDRESS_ENCODING, BITCOIN_CHAINS, type BitcoinChain } from './chain';

/**
 * A Bitcoin wallet is an account-level extended public key (docs/settlement.md): an xpub/zpub (mainnet) or
 * tpub/vpub (test chains), or a `wpkh(...)` output descriptor holding one. Every invoice gets the BIP84 native
 * segwit address m/0/i of that key (receive branch 0, index i never reused). Derivation is @scure/bip32 and
 * @scure/btc-signer's; this file only recognises the inputs and says clearly why one is refused.
 */

type KeyPrefix = 'xpub' | 'zpub' | 'tpub' | 'vpub';

/** SLIP-132 version bytes of the public (and matching private) extended keys we read. */
const PUBLIC_VERSIONS: Record<KeyPrefix, Versions> = {
  xpub: { public: 0x0488b21e, private: 0x0488ade4 },
  zpub: { public: 0x04b24746, private: 0x04b2430c },
  tpub: { public: 0x043587cf, private: 0x04358394 },
  vpub: { public: 0x045f1cf6, private: 0x045f18bc },
};

const KEY_CHAINS: Record<KeyPrefix, 'main' | 'test'> = { xpub: 'main', zpub: 'main', tpub: 'test', vpub: 'test' };

/** Extended keys recognised only to refuse them with the right reason. */
const PRIVATE_PREFIXES = ['xprv', 'yprv', 'zprv', 'tprv', 'uprv', 'vprv'];
const NESTED_SEGWIT_PREFIXES = ['ypub', 'upub'];

export interface BitcoinWalletKey {
  /** The account key. */
  key: HDKey;
  /** The same key as a plain xpub (mainnet) or tpub: one wallet however it was written (zpub, descriptor…). */
  accountKey: string;
  /** The branch addresses are derived on (always 0, receive). */
  branch: number;
}

export interface DerivedAddress {
  index: number;
  address: string;
  /** The output script (hex): what the watcher matches outputs by. */
  scriptPubKey: string;
}

export class BitcoinWalletError extends Error {}

const ADDRESS_REFUSED =
  'This is a single Bitcoin address. Every invoice needs an address of its own (one address shared by all invoices ' +
  "would make payments impossible to tell apart and shows every payer the others): enter your wallet's account " +
  'extended public key (zpub… or xpub…; vpub…/tpub… on test chains) or a wpkh() descriptor instead.';

/** Whether `text` is an address of any Bitcoin chain (bech32 or base58). */
function isPlainAddress(text: string): boolean {
  for (const chain of BITCOIN_CHAINS) {
    try {
      Address(ADDRESS_ENCODING[chain]).decode(text);
      return true;
    } catch {
      // try the next encoding
    }
  }
  return false;
}

function chainWord(chain: BitcoinChain): string {
  return chain === 'main' ? 'mainnet' : chain;
}

/** Reads one extended public key for `chain`, or throws with the reason it is refused. */
function readExtendedKey(text: string, chain: BitcoinChain): { key: HDKey; prefix: KeyPrefix } {
  const prefix4 = text.slice(0, 4);
  if (PRIVATE_PREFIXES.includes(prefix4)) {
    throw new BitcoinWalletError(
      'This is an extended PRIVATE key: whoever has it can spend your funds. Never paste it anywhere; move your funds ' +
        "if it may have leaked, and enter the account's extended public key (zpub/xpub, vpub/tpub on test chains) instead.",
    );
  }
  if (NESTED_SEGWIT_PREFIXES.includes(prefix4)) {
    throw new BitcoinWalletError(
      `A ${prefix4} is for P2SH-wrapped segwit addresses (BIP49); invoices use native segwit (BIP84) addresses: export your wallet's ${prefix4 === 'ypub' ? 'zpub' : 'vpub'} instead.`,
    );
  }
  if (!(prefix4 in PUBLIC_VERSIONS)) {
    throw new BitcoinWalletError(
      'Enter an extended public key (zpub… or xpub…; vpub… or tpub… on test chains) or a wpkh() descriptor.',
    );
  }
  const prefix = prefix4 as KeyPrefix;
  const wanted = chain === 'main' ? 'main' : 'test';
  if (KEY_CHAINS[prefix] !== wanted) {
    throw new BitcoinWalletError(
      `A ${prefix} is a ${KEY_CHAINS[prefix] === 'main' ? 'mainnet' : 'testnet'} key, but this deployment settles on Bitcoin ${chainWord(chain)} (BITCOIN_CHAIN=${chain}): enter a ${wanted === 'main' ? 'zpub or xpub' : 'vpub or tpub'}.`,
    );
  }
  let key: HDKey;
  try {
    key = HDKey.fromExtendedKey(text, PUBLIC_VERSIONS[prefix]);
  } catch {
    throw new BitcoinWalletError(
      `This ${prefix} is not a valid extended public key (a character is wrong or missing: its checksum does not match).`,
    );
  }
  if (key.privateKey) throw new BitcoinWalletError('Extended private keys are refused: enter the extended public key.');
  return { key, prefix };
}

const DESCRIPTOR = /^wpkh\((?:\[([0-9a-fA-F]{8})((?:\/\d+['hH]?)*)\])?([1-9A-HJ-NP-Za-km-z]+)((?:\/[^)]*)?)\)$/;

/** `wpkh([fingerprint/84h/0h/0h]xpub…/0/*)#checksum` (the checksum and the origin are optional). */
function readDescriptor(text: string, chain: BitcoinChain): HDKey {
  const [body, checksum, ...rest] = text.split('#');
  if (rest.length > 0 || body === undefined)
    throw new BitcoinWalletError('A descriptor has at most one # (before its checksum).');
  if (checksum !== undefined && descriptorChecksum(body) !== checksum) {
    throw new BitcoinWalletError(
      "The descriptor's checksum (after #) does not match: it was changed or mistyped. Copy it again from your wallet.",
    );
  }
  if (!body.startsWith('wpkh(')) {
    throw new BitcoinWalletError(
      'Only wpkh() descriptors (native segwit, BIP84) are accepted: export the receive descriptor of a native segwit wallet.',
    );
  }
  const match = DESCRIPTOR.exec(body);
  if (!match)
    throw new BitcoinWalletError(
      'This wpkh() descriptor could not be read: expected wpkh([fingerprint/84h/0h/0h]zpub…/0/*).',
    );
  const [, , , keyText, path] = match;
  if (path !== '/0/*' && path !== '/<0;1>/*') {
    throw new BitcoinWalletError(
      path === '' || path === undefined
        ? 'This descriptor names one key (one address): a wallet for invoices must be ranged, ending in /0/* (receive addresses).'
        : `This descriptor derives ${path}: only the receive branch /0/* (or /<0;1>/*) is accepted, so addresses match your wallet's receive addresses.`,
    );
  }
  return readExtendedKey(keyText!, chain).key;
}

/**
 * Reads a wallet as stored or entered: an extended public key or a wpkh() descriptor for `chain`. Throws a
 * BitcoinWalletError whose message says why anything else (a plain address, a private key, a key of another
 * chain or address type, a bad checksum) is refused.
 */
export function readBitcoinWallet(input: string, chain: BitcoinChain): BitcoinWalletKey {
  const text = input.trim();
  if (isPlainAddress(text)) throw new BitcoinWalletError(ADDRESS_REFUSED);
  const key =
    text.startsWith('wpkh(') || text.includes('(') ? readDescriptor(text, chain) : readExtendedKey(text, chain).key;
  const canonical = new HDKey({
    versions: chain === 'main' ? PUBLIC_VERSIONS.xpub : PUBLIC_VERSIONS.tpub,
    depth: key.depth,
    index: key.index,
    parentFingerprint: key.parentFingerprint,
    chainCode: key.chainCode!,
    publicKey: key.publicKey!,
  });
  return { key, accountKey: canonical.publicExtendedKey, branch: 0 };
}

/** The message saying why `input` is not a usable wallet on `chain`, or null when it is. */
export function bitcoinWalletError(input: string, chain: BitcoinChain): string | null {
  try {
    readBitcoinWallet(input, chain);
    return null;
  } catch (error) {
    if (error instanceof BitcoinWalletError) return error.message;
    throw error;
  }
}

/** The receive address m/0/index of a wallet, encoded for `chain`. */
export function deriveAddress(wallet: BitcoinWalletKey, index: number, chain: BitcoinChain): DerivedAddress {
  if (!Number.isInteger(index) || index < 0 || index >= 0x80000000)
    throw new RangeError(`not a non-hardened index: ${index}`);
  const child = wallet.key.deriveChild(wallet.branch).deriveChild(index);
  const payment = p2wpkh(child.publicKey!, ADDRESS_ENCODING[chain]);
  return { index, address: payment.address!, scriptPubKey: hex.encode(payment.script) };
}

/** The first `count` receive addresses: what the portal shows before the wallet is saved. */
export function firstAddresses(input: string, chain: BitcoinChain, count = 3): DerivedAddress[] {
  const wallet = readBitcoinWallet(input, chain);
  return Array.from({ length: count }, (_, index) => deriveAddress(wallet, index, chain));
}
