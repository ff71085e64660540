import { CURRENCY_RULES, type Currency, type Network } from '../invoices/currencies';
import { chainId, isEvmNetwork, tokenAddress } from './networks';

/** A decimal string ("10.504213") in base units of `decimals` (10504213n for 6). Throws on excess decimals. */
export function toBaseUnits(amount: string, decimals: number): bigint {
  const match = /^(\d+)(?:\.(\d+))?$/.exec(amount);
  if (!match) throw new Error(`not a decimal amount: ${amount}`);
  const fraction = (match[2] ?? '').replace(/0+$/, '');
  if (fraction.length > decimals) throw new Error(`${amount} has more than ${decimals} decimals`);
  return BigInt(match[1]! + fraction.padEnd(decimals, '0'));
}

/** Base units → canonical decimal string (no trailing fractional zeros). */
export function fromBaseUnits(units: bigint, decimals: number): string {
  const digits = units.toString().padStart(decimals + 1, '0');
  const whole = digits.slice(0, digits.length - decimals);
  const fraction = digits.slice(digits.length - decimals).replace(/0+$/, '');
  return fraction ? `${whole}.${fraction}` : whole;
}

export interface PaymentUriInput {
  currency: Currency;
  network: Network;
  address: string;
  /** The exact amount to send, as a decimal string. */
  payAmount: string;
}

/**
 * The URI a wallet opens with everything filled in. EVM: EIP-681 — a token transfer
 * `ethereum:<token>@<chainId>/transfer?address=<wallet>&uint256=<base units>`, or native ETH
 * `ethereum:<wallet>@<chainId>?value=<wei>`. Bitcoin: BIP-21 `bitcoin:<address>?amount=<btc>`. Tron has no
 * wallet standard: `tron:<address>?token=<TRC-20 contract>&amount=<decimal>` (docs/api.md says so).
 */
export function paymentUri({ currency, network, address, payAmount }: PaymentUriInput): string {
  const decimals = CURRENCY_RULES[currency].decimals;
  if (isEvmNetwork(network)) {
    const id = chainId(network);
    const units = toBaseUnits(payAmount, decimals).toString();
    const token = tokenAddress(currency, network);
    return token
      ? `ethereum:${token}@${id}/transfer?address=${address}&uint256=${units}`
      : `ethereum:${address}@${id}?value=${units}`;
  }
  if (network === 'bitcoin') return `bitcoin:${address}?amount=${payAmount}`;
  return `tron:${address}?token=${tokenAddress(currency, network) ?? currency}&amount=${payAmount}`;
}

export interface ParsedPaymentUri {
  chainId: number;
  /** The token contract, or null for native ETH. */
  token: string | null;
  to: string;
  units: bigint;
}

/** Parses an EVM payment_uri as paymentUri writes it (npm run chain -- pay, tests). */
export function parseEvmPaymentUri(uri: string): ParsedPaymentUri {
  const token = /^ethereum:(0x[0-9a-fA-F]{40})@(\d+)\/transfer\?address=(0x[0-9a-fA-F]{40})&uint256=(\d+)$/.exec(uri);
  if (token) return { token: token[1]!, chainId: Number(token[2]), to: token[3]!, units: BigInt(token[4]!) };
  const native = /^ethereum:(0x[0-9a-fA-F]{40})@(\d+)\?value=(\d+)$/.exec(uri);
  if (native) return { token: null, chainId: Number(native[2]), to: native[1]!, units: BigInt(native[3]!) };
  throw new Error(`not an EVM payment URI: ${uri}`);
}
