import { keccak_256 } from '@noble/hashes/sha3.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { createBase58check } from '@scure/base';
import { bytesToHex, concatBytes, recoverAddress, stringToBytes, verifyMessage, type Hex } from 'viem';
import type { NetworkFamily } from '../../invoices/currencies';

/**
 * Proof that whoever saves a wallet controls its key: a signature over the claim message (./claim.ts), checked
 * per chain family behind one interface, with well-kept libraries (viem's secp256k1 recovery).
 *
 * - EVM: EIP-191 personal_sign (`"\x19Ethereum Signed Message:\n" + length + message`, keccak-256), viem
 *   `verifyMessage`. Externally owned accounts only: a smart-contract wallet (ERC-1271) would need a chain call.
 * - Tron: TronWeb `signMessageV2` / TronLink (`"\x19TRON Signed Message:\n" + length + message`, keccak-256, the
 *   same secp256k1 recovery); the recovered key's address is 0x41 + the last 20 bytes of its keccak, base58check.
 * - Bitcoin: none yet. Bitcoin wallets are extended public keys; the proof will be a BIP-322 signature by the
 *   first receive address (m/0/0) — see docs/portal.md ("Wallet ownership"). Until then a second claim is refused.
 */
export interface OwnershipVerifier {
  /** How the user signs, for the portal: "personal_sign (EIP-191) in your Ethereum wallet". */
  howToSign: string;
  verify(input: { address: string; message: string; signature: string }): Promise<boolean>;
}

const SIGNATURE = /^0x[0-9a-fA-F]{130}$/;

const evm: OwnershipVerifier = {
  howToSign:
    'Sign it with the address\'s key as a personal message (EIP-191 personal_sign, "Sign message" in MetaMask, Rabby, Ledger Live …)',
  async verify({ address, message, signature }) {
    if (!SIGNATURE.test(signature)) return false;
    try {
      return await verifyMessage({ address: address as Hex, message, signature: signature as Hex });
    } catch {
      return false;
    }
  },
};

const b58c = createBase58check(sha256);
export const TRON_MESSAGE_PREFIX = '\x19TRON Signed Message:\n';

/** TronWeb's hashMessage (signMessageV2): keccak-256 of the prefix, the message's byte length and the message. */
export function tronMessageHash(message: string): Hex {
  const bytes = stringToBytes(message);
  return bytesToHex(
    keccak_256(concatBytes([stringToBytes(TRON_MESSAGE_PREFIX), stringToBytes(String(bytes.length)), bytes])),
  );
}

/** A 0x EVM address as the Tron base58check address of the same key. */
export function tronAddressOf(evmAddress: string): string {
  return b58c.encode(Uint8Array.from(Buffer.from(`41${evmAddress.slice(2)}`, 'hex')));
}

const tron: OwnershipVerifier = {
  howToSign: 'Sign it with the address\'s key as a message (TronLink "Sign message", TronWeb trx.signMessageV2)',
  async verify({ address, message, signature }) {
    if (!SIGNATURE.test(signature)) return false;
    try {
      const signer = await recoverAddress({ hash: tronMessageHash(message), signature: signature as Hex });
      return tronAddressOf(signer) === address;
    } catch {
      return false;
    }
  },
};

export const OWNERSHIP_VERIFIERS: Partial<Record<NetworkFamily, OwnershipVerifier>> = { evm, tron };
