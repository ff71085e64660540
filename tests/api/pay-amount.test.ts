import { describe, expect, it } from 'vitest';
import { db } from '@/lib/db';
import { TEST_PAY_ADDRESSES } from '@/lib/wallets/address';
import { EVM_WALLET, LIVE_INVOICE, seedAccount, setEvmWallet, VALID_INVOICE } from '../support/fixtures';
import { chain } from '../support/chain';
import { call, expectProblem } from '../support/http';

// docs/api.md, docs/settlement.md: the settlement fields of the invoice contract. The lane's server watches its
// local chain as ethereum (RPC_URL_ETHEREUM, CHAIN_ID_ETHEREUM, TOKEN_*_ETHEREUM) and nothing else; base keeps the
// real chain's defaults.

const create = (secret: string, body: unknown) => call('POST', '/v1/invoices', { key: secret, body });

async function liveAccount() {
  const account = await seedAccount({ environment: 'live' });
  await setEvmWallet(account.workspace.id);
  return account;
}

/** pay_amount − amount in base units of a 6-decimal token. */
function suffixUnits(payAmount: string, amount: string): number {
  const units = (value: string) => {
    const [whole, fraction = ''] = value.split('.');
    return BigInt(whole! + fraction.padEnd(6, '0'));
  };
  return Number(units(payAmount) - units(amount));
}

describe('pay_amount and payment_uri', () => {
  it('a test invoice: pay_amount = amount, a payment_uri on the documented test address, no payments yet', async () => {
    const account = await seedAccount();
    const invoice = (await create(account.secret, { amount: '25', currency: 'USDC', network: 'base' })).json;
    expect(invoice).toMatchObject({
      pay_address: TEST_PAY_ADDRESSES.evm,
      pay_amount: '25',
      payment_uri: `ethereum:0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913@8453/transfer?address=${TEST_PAY_ADDRESSES.evm}&uint256=25000000`,
      amount_received: '0',
      payment_exception: null,
      redirect_url: null,
      payments: [],
    });
    const tron = (await create(account.secret, VALID_INVOICE)).json;
    expect(tron.pay_amount).toBe('10.5');
    // The token is the deployment's TOKEN_USDT_TRON (the lane's mock USDT, base58; the real contract by default).
    expect(tron.payment_uri).toBe(`tron:${TEST_PAY_ADDRESSES.tron}?token=${process.env.TOKEN_USDT_TRON}&amount=10.5`);
    const btc = (await create(account.secret, { amount: '0.001', currency: 'BTC', network: 'bitcoin' })).json;
    expect(btc.payment_uri).toBe(`bitcoin:${TEST_PAY_ADDRESSES.bitcoin}?amount=0.001`);
  });

  it('a live invoice: amount + a suffix of 0.000001–0.009999, an EIP-681 URI on the wallet, stored and read back', async () => {
    const account = await liveAccount();
    const invoice = (await create(account.secret, LIVE_INVOICE)).json;
    const suffix = suffixUnits(invoice.pay_amount, '10.5');
    expect(suffix).toBeGreaterThanOrEqual(1);
    expect(suffix).toBeLessThanOrEqual(9999);
    const units = BigInt(Math.round(10.5 * 1e6)) + BigInt(suffix);
    expect(invoice.payment_uri).toBe(
      `ethereum:${chain.tokens.USDT}@${chain.chainId}/transfer?address=${EVM_WALLET}&uint256=${units}`,
    );
    const read = (await call('GET', `/v1/invoices/${invoice.id}`, { key: account.secret })).json;
    expect(read).toEqual(invoice);
    const listed = (await call('GET', '/v1/invoices', { key: account.secret })).json.data[0];
    expect(listed).toEqual(invoice);
  });

  it('native ETH: pay_amount has a gwei suffix (≤ 0.000009999) and the URI carries the value in wei', async () => {
    const account = await liveAccount();
    const invoice = (await create(account.secret, { amount: '0.05', currency: 'ETH', network: 'ethereum' })).json;
    const wei = BigInt(invoice.payment_uri.match(/value=(\d+)$/)[1]);
    const suffixWei = wei - 50_000_000_000_000_000n;
    expect(suffixWei % 1_000_000_000n).toBe(0n);
    expect(suffixWei).toBeGreaterThanOrEqual(1_000_000_000n);
    expect(suffixWei).toBeLessThanOrEqual(9_999_000_000_000n);
    expect(invoice.payment_uri).toBe(`ethereum:${EVM_WALLET}@${chain.chainId}?value=${wei}`);
  });

  it('30 concurrent live invoices of one amount on one wallet all get distinct pay_amounts (the database decides)', async () => {
    const account = await liveAccount();
    const results = await Promise.all(Array.from({ length: 30 }, () => create(account.secret, LIVE_INVOICE)));
    expect(results.map((r) => r.status)).toEqual(Array(30).fill(201));
    expect(new Set(results.map((r) => r.json.pay_amount)).size).toBe(30);
  });

  it('two workspaces sharing one wallet address (any case) never share a pay_amount', async () => {
    const a = await liveAccount();
    const b = await seedAccount({ environment: 'live' });
    await setEvmWallet(b.workspace.id, 'ethereum', EVM_WALLET.toLowerCase());
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => create(i % 2 ? a.secret : b.secret, { ...LIVE_INVOICE, amount: '7' })),
    );
    expect(new Set(results.map((r) => r.json.pay_amount)).size).toBe(20);
  });

  it('the reservation is held until expires_at + 24 h, and an expired one is taken over', async () => {
    const account = await liveAccount();
    const invoice = (await create(account.secret, { ...LIVE_INVOICE, amount: '3', expires_in: 600 })).json;
    const reservation = await db().amountReservation.findFirstOrThrow({ where: { invoiceId: invoice.id } });
    expect(reservation.address).toBe(EVM_WALLET.toLowerCase());
    expect(reservation.payAmount.toFixed()).toBe(invoice.pay_amount);
    expect(reservation.reservedUntil.getTime()).toBe(Date.parse(invoice.expires_at) + 24 * 3600 * 1000);
    // Every other suffix taken by live reservations, this one past its window: the next create takes it over.
    await db()
      .$executeRaw`INSERT INTO amount_reservations (network, currency, address, pay_amount, invoice_id, reserved_until)
      SELECT 'ethereum', 'USDT', ${reservation.address}, 3 + k * 0.000001, 'inv_other', now() + interval '1 day'
      FROM generate_series(1, 9999) k WHERE 3 + k * 0.000001 <> ${reservation.payAmount}::numeric`;
    expectProblem(await create(account.secret, { ...LIVE_INVOICE, amount: '3' }), 422, 'pay_amounts_exhausted');
    await db().amountReservation.update({
      where: {
        network_currency_address_payAmount: {
          network: 'ethereum',
          currency: 'USDT',
          address: reservation.address,
          payAmount: reservation.payAmount,
        },
      },
      data: { reservedUntil: new Date(Date.now() - 1000) },
    });
    const next = (await create(account.secret, { ...LIVE_INVOICE, amount: '3' })).json;
    expect(next.pay_amount).toBe(invoice.pay_amount);
    expect(
      (await db().amountReservation.findFirstOrThrow({ where: { invoiceId: next.id } })).reservedUntil.getTime(),
    ).toBeGreaterThan(Date.now());
  });
});

describe('networks this deployment does not watch', () => {
  it('live invoices there → 422 network_not_watched naming the setting; test invoices are unaffected', async () => {
    const account = await seedAccount({ environment: 'live' });
    await setEvmWallet(account.workspace.id, 'polygon');
    const polygon = expectProblem(
      await create(account.secret, { ...LIVE_INVOICE, network: 'polygon' }),
      422,
      'network_not_watched',
    );
    expect(polygon.detail).toContain('RPC_URL_POLYGON');
    // The suite's servers watch bitcoin (a regtest node per lane): there, a live invoice needs the wallet first.
    expectProblem(
      await create(account.secret, { amount: '0.01', currency: 'BTC', network: 'bitcoin' }),
      422,
      'wallet_not_configured',
    );
    const testAccount = await seedAccount();
    expect((await create(testAccount.secret, { ...LIVE_INVOICE, network: 'polygon' })).status).toBe(201);
  });
});

describe('redirect_url', () => {
  it('an https URL up to 2000 characters is stored and returned; others are 400', async () => {
    const account = await seedAccount();
    const url = 'https://shop.example/thanks?order=1';
    expect((await create(account.secret, { ...VALID_INVOICE, redirect_url: url })).json.redirect_url).toBe(url);
    for (const bad of ['http://shop.example/thanks', 'not a url', `https://shop.example/${'a'.repeat(2000)}`]) {
      const problem = expectProblem(
        await create(account.secret, { ...VALID_INVOICE, redirect_url: bad }),
        400,
        'validation_failed',
      );
      expect(problem.errors?.[0]?.path).toBe('redirect_url');
    }
  });
});

describe('processing', () => {
  it('a processing invoice neither expires nor can be cancelled or simulated', async () => {
    const account = await seedAccount();
    const id = (await create(account.secret, VALID_INVOICE)).json.id;
    await db().invoice.update({
      where: { id },
      data: { status: 'processing', expiresAt: new Date(Date.now() - 1000) },
    });
    expect((await call('GET', `/v1/invoices/${id}`, { key: account.secret })).json.status).toBe('processing');
    expect(
      (await call('GET', '/v1/invoices?status=processing', { key: account.secret })).json.data.map(
        (i: { id: string }) => i.id,
      ),
    ).toEqual([id]);
    const problem = expectProblem(
      await call('POST', `/v1/invoices/${id}/cancel`, { key: account.secret }),
      409,
      'invoice_not_cancellable',
    );
    expect(problem.detail).toMatch(/processing/);
    expectProblem(
      await call('POST', `/v1/test/invoices/${id}/simulate-payment`, { key: account.secret }),
      409,
      'invoice_not_payable',
    );
  });

  it('a simulated payment counts as amount_received', async () => {
    const account = await seedAccount();
    const id = (await create(account.secret, VALID_INVOICE)).json.id;
    const paid = (await call('POST', `/v1/test/invoices/${id}/simulate-payment`, { key: account.secret })).json;
    expect(paid).toMatchObject({ status: 'paid', amount_received: '10.5', payments: [] });
  });
});
