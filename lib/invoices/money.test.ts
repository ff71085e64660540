import { describe, expect, it } from 'vitest';
import { formatCurrencyAmount, formatMoney } from './money';

describe('formatCurrencyAmount', () => {
  it('keeps two decimals at least and every significant digit, from the string', () => {
    expect(formatMoney('12.5', 'USDT')).toBe('12.50 USDT');
    expect(formatMoney('10', 'USDC')).toBe('10.00 USDC');
    expect(formatMoney('0.015', 'ETH')).toBe('0.015 ETH');
    expect(formatMoney('0.00000001', 'BTC')).toBe('0.00000001 BTC');
    expect(formatMoney('1012.750000000000000000', 'USDT')).toBe('1,012.75 USDT');
    expect(formatCurrencyAmount('1234567.123456', 'USDT')).toBe('1234567.123456');
    expect(formatCurrencyAmount('000.10', 'USDT')).toBe('0.10');
  });

  it('never rounds: more decimals than the currency has is refused, as is anything but a plain decimal', () => {
    expect(() => formatCurrencyAmount('1.0000001', 'USDT')).toThrow(RangeError);
    for (const bad of ['1e3', '', ' ', '1,5', 'NaN', '0x10'])
      expect(() => formatCurrencyAmount(bad, 'USDT'), bad).toThrow(RangeError);
  });
});
