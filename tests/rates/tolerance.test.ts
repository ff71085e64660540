import { describe, expect, it } from 'vitest';
import { attachPayment, listUnmatchedPayments } from '@/lib/chain/unmatched';
import { parseDecimal } from '@/lib/rates/decimal';
import { setWallet } from '@/lib/wallets/wallets';
import { setPaymentTolerancePercent } from '@/lib/workspaces/payment-tolerance';
import { freshAddress, mineToConfirm, pay, watcher } from '../support/chain';
import { seedAccount } from '../support/fixtures';
import { call } from '../support/http';

// payment_tolerance_percent (docs/rates.md): a confirmed total short of the amount by at most that share counts as
// paid, flagged underpaid_within_tolerance; one base unit more short stays underpaid. Payments short of pay_amount
// match no invoice (attribution is by exact amount): the merchant attaches them, as docs/settlement.md describes.

async function shortPayment(tolerance: string, body: Record<string, string>, units: (amountUnits: bigint) => bigint) {
  const account = await seedAccount({ environment: 'live' });
  await setWallet(account.workspace.id, { network: 'ethereum', address: freshAddress() });
  await setPaymentTolerancePercent(account.workspace.id, tolerance);
  const invoice = (await call('POST', '/v1/invoices', { key: account.secret, body })).json;
  expect(invoice.status).toBe('pending');
  const { units: amountDigits, scale } = parseDecimal(invoice.amount);
  const amountUnits = amountDigits * 10n ** BigInt(6 - scale); // USDC: 6 decimals
  const w = watcher();
  const hash = await pay(invoice.payment_uri, { units: () => units(amountUnits) });
  await w.tick();
  await mineToConfirm();
  await w.tick();
  const [payment] = await listUnmatchedPayments(account.workspace.id);
  expect(payment?.txHash).toBe(hash);
  const outcome = await attachPayment(account.workspace.id, payment!.id, invoice.id);
  const read = (await call('GET', `/v1/invoices/${invoice.id}`, { key: account.secret })).json;
  return { outcome, read };
}

describe('payment tolerance at its boundary', () => {
  // $100.00 in USDC at the local USDC/USD feed (1.00) is 100 USDC: 1 % short is 99.000000 USDC.
  const priced = { price_amount: '100.00', price_currency: 'USD', currency: 'USDC', network: 'ethereum' };

  it('exactly at the tolerance: paid, underpaid_within_tolerance', async () => {
    const { outcome, read } = await shortPayment('1', priced, (amount) => amount - amount / 100n);
    expect(outcome).toEqual({ status: 'paid', paymentException: 'underpaid_within_tolerance' });
    expect(read).toMatchObject({
      status: 'paid',
      amount: '100',
      amount_received: '99',
      payment_exception: 'underpaid_within_tolerance',
    });
  });

  it('one base unit beyond it: stays pending, underpaid', async () => {
    const { outcome, read } = await shortPayment('1', priced, (amount) => amount - amount / 100n - 1n);
    expect(outcome).toEqual({ status: 'pending', paymentException: 'underpaid' });
    expect(read).toMatchObject({ status: 'pending', amount_received: '98.999999', payment_exception: 'underpaid' });
  });

  it('tolerance 0 (the default) accepts only the full amount; a fractional tolerance is exact', async () => {
    const zero = await shortPayment(
      '0',
      { amount: '10', currency: 'USDC', network: 'ethereum' },
      (amount) => amount - 1n,
    );
    expect(zero.outcome).toEqual({ status: 'pending', paymentException: 'underpaid' });
    // 0.25 % of 12.34 USDC is 0.03085: 12.30915 is exactly at the limit.
    const quarter = await shortPayment(
      '0.25',
      { amount: '12.34', currency: 'USDC', network: 'ethereum' },
      () => 12_309_150n,
    );
    expect(quarter.outcome).toEqual({ status: 'paid', paymentException: 'underpaid_within_tolerance' });
    const beyond = await shortPayment(
      '0.25',
      { amount: '12.34', currency: 'USDC', network: 'ethereum' },
      () => 12_309_149n,
    );
    expect(beyond.outcome).toEqual({ status: 'pending', paymentException: 'underpaid' });
  });
});
