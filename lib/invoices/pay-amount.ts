import type { Currency } from './currencies';

/**
 * How a live invoice's pay_amount is made unique (docs/settlement.md): `amount` + k × step, k in 1..SUFFIXES, the first k
 * (from a random start) that no open invoice on the same network, asset and address holds. Steps:
 * USDT/USDC one base unit, 0.000001 (suffix ≤ 0.009999); ETH 1 gwei, 0.000000001 (suffix ≤ 0.000009999 ETH);
 * BTC 1 satoshi (suffix ≤ 0.00009999 BTC). Test invoices are never matched: their pay_amount is `amount`.
 */
export const SUFFIXES = 9999;

export const SUFFIX_STEP: Record<Currency, string> = {
  USDT: '0.000001',
  USDC: '0.000001',
  ETH: '0.000000001',
  BTC: '0.00000001',
};

/** How long a pay_amount stays reserved after expires_at: the monitoring window for late payments. */
export const MONITORING_WINDOW_MS = 24 * 3600 * 1000;

export function monitoringWindowEnd(expiresAt: Date): Date {
  return new Date(expiresAt.getTime() + MONITORING_WINDOW_MS);
}
