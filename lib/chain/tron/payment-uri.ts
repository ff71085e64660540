import { CURRENCY_RULES } from '../../invoices/currencies';
import { toBaseUnits } from '../payment-uri';
import { tronToBase58 } from './address';

export interface ParsedTronPaymentUri {
  /** Base58. */
  to: string;
  /** The TRC-20 contract, base58. */
  token: string;
  /** The decimal amount, as written. */
  amount: string;
  /** The amount in the token's base units (6 decimals for USDT). */
  units: bigint;
}

/**
 * Parses a Tron payment_uri as lib/chain/payment-uri.ts writes it: `tron:<wallet>?token=<contract>&amount=<decimal>`
 * (the local `pay` helper and the tests; wallets take the address and amount, see docs/api.md).
 */
export function parseTronPaymentUri(uri: string): ParsedTronPaymentUri {
  const match = /^tron:(T[1-9A-HJ-NP-Za-km-z]{33})\?token=(T[1-9A-HJ-NP-Za-km-z]{33})&amount=(\d+(?:\.\d+)?)$/.exec(
    uri,
  );
  if (!match) throw new Error(`not a Tron payment URI (tron:<T… wallet>?token=<T… contract>&amount=<decimal>): ${uri}`);
  return {
    to: tronToBase58(match[1]!),
    token: tronToBase58(match[2]!),
    amount: match[3]!,
    units: toBaseUnits(match[3]!, CURRENCY_RULES.USDT.decimals),
  };
}
