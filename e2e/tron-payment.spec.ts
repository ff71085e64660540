import { expect, test, type Page } from '@playwright/test';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import QRCode from 'qrcode';
import { Webhook } from 'standardwebhooks';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { tronToBase58 } from '../lib/chain/tron/address';
import { startReceiver, type Receiver } from '../tests/support/receiver';
import { expectNoSeriousAxeViolations } from './axe';
import { api, confirmIdentity, createKey, signUp, switchPlan, uniqueEmail } from './helpers';

// Live USDT on tron end to end, as README "Try a live payment locally" (Tron) describes it: the e2e server's
// local chain behind the TRON JSON-RPC façade is `tron`, the worker's Tron watcher settles it at the façade's
// finalized block (head − 19); the payment is made with the README's own command
// (`npm run chain -- --network tron pay <payment_uri>`), the blocks with `… mine 19`.

const ROOT = path.resolve(__dirname, '..');
const tronRpc = `http://127.0.0.1:${process.env.E2E_TRON_PORT}/jsonrpc`;
const run = promisify(execFile);
const chainCli = (...args: string[]) =>
  run(process.execPath, ['--import', 'tsx', 'scripts/chain/cli.ts', '--network', 'tron', ...args, '--rpc', tronRpc], {
    cwd: ROOT,
  });

interface DeliveredEvent {
  id: string;
  type: string;
  environment: string;
  data: {
    object: {
      id: string;
      status: string;
      network: string;
      amount_received: string;
      payment: { tx_hash: string } | null;
    };
  };
}

let receiver: Receiver;
test.beforeEach(async () => {
  const dir = process.env.E2E_TLS_DIR ?? '';
  receiver = await startReceiver(() => ({ status: 204 }), {
    tls: {
      key: readFileSync(path.join(dir, 'key.pem'), 'utf8'),
      cert: readFileSync(path.join(dir, 'cert.pem'), 'utf8'),
    },
  });
});
test.afterEach(async () => {
  await receiver.close();
});

async function waitForStatus(page: Page, invoiceId: string, status: string) {
  await expect(async () => {
    await page.goto(`/invoices/${invoiceId}`);
    await expect(page.locator('dd[data-field="Status"]')).toHaveText(status, { timeout: 1000 });
  }).toPass({ timeout: 45_000 });
}

test('tron: base58 wallet + live key → live USDT invoice → paid with the pay helper → portal and hosted page show it paid → invoice.paid verified', async ({
  page,
  browser,
  request,
}) => {
  await signUp(page, uniqueEmail('tronpay'), 'Tron Shop');
  await switchPlan(page, 'Developer');

  // The payout wallet for tron, in base58: an address of this test's own.
  const wallet = tronToBase58(privateKeyToAccount(generatePrivateKey()).address);
  await page.goto('/wallets');
  const form = page.getByRole('form', { name: 'Tron wallet' });
  await form.getByLabel('Tron address').fill(wallet);
  await form.getByRole('button', { name: 'Save Tron' }).click();
  await confirmIdentity(page);
  await expect(form.getByText('Saved.')).toBeVisible();

  const key = await createKey(page, { label: 'Tron checkout', environment: 'live' });

  await page.goto('/webhooks');
  await page.getByLabel('Endpoint URL').fill(receiver.url);
  await page.getByRole('radio', { name: /^Live/ }).check();
  await page.getByRole('button', { name: 'Add endpoint' }).click();
  const dialog = page.getByRole('dialog', { name: `Endpoint added: ${receiver.url}` });
  await expect(dialog).toBeVisible();
  const secret = await dialog.getByLabel('Signing secret').inputValue();
  await dialog.getByRole('button', { name: 'I have saved the secret' }).click();

  const created = await api(request, 'POST', '/v1/invoices', key.secret, {
    amount: '49.99',
    currency: 'USDT',
    network: 'tron',
    order_id: 'tron-e2e-1',
  });
  expect(created.status).toBe(201);
  const invoice = created.json as {
    id: string;
    pay_address: string;
    pay_amount: string;
    payment_uri: string;
    hosted_url: string;
  };
  expect(invoice.pay_address).toBe(wallet);
  expect(invoice.payment_uri).toMatch(
    new RegExp(`^tron:${wallet}\\?token=T[1-9A-HJ-NP-Za-km-z]{33}&amount=${invoice.pay_amount.replace('.', '\\.')}$`),
  );

  // The payer's page: address and amount to copy, and a QR of the address alone (what Tron wallets scan).
  const payer = await (await browser.newContext({ permissions: ['clipboard-read', 'clipboard-write'] })).newPage();
  await payer.goto(new URL(invoice.hosted_url).pathname);
  await expect(payer.getByTestId('status')).toContainText('Awaiting payment');
  await expect(payer.getByTestId('network')).toHaveText('Tron (TRC-20)');
  await expect(payer.getByTestId('pay-address')).toHaveText(wallet);
  await expect(payer.getByTestId('pay-amount')).toHaveText(invoice.pay_amount);
  await expect(payer.getByTestId('qr')).toHaveAttribute('data-qr-text', wallet);
  const expected = await QRCode.toString(wallet, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
  const shown = await payer
    .getByTestId('qr')
    .locator('svg path')
    .evaluateAll((paths) => paths.map((p) => p.getAttribute('d')));
  expect(shown).toEqual([...expected.matchAll(/ d="([^"]+)"/g)].map((m) => m[1]));
  await expect(payer.getByTestId('tron-note')).toContainText('address only');
  // Keyboard only, as a payer copying into a Tron wallet: Tab to each copy button, Enter, the clipboard holds it.
  for (const [name, value] of [
    ['Copy amount', invoice.pay_amount],
    ['Copy address', wallet],
  ] as const) {
    for (
      let i = 0;
      i < 12 && !(await payer.getByRole('button', { name }).evaluate((el) => el === document.activeElement));
      i++
    )
      await payer.keyboard.press('Tab');
    await expect(payer.getByRole('button', { name })).toBeFocused();
    await payer.keyboard.press('Enter');
    await expect.poll(() => payer.evaluate(() => navigator.clipboard.readText())).toBe(value);
  }
  await expectNoSeriousAxeViolations(payer, 'the Tron hosted page');
  for (const width of [1280, 375]) {
    await payer.setViewportSize({ width, height: 900 });
    await payer.screenshot({ path: `e2e/screenshots/tron-hosted-${width}.png`, fullPage: true });
  }

  // Paid with the README's command; TRON's txid has no 0x.
  const paid = await chainCli('pay', invoice.payment_uri);
  const txid = /paid: txid ([0-9a-f]{64}) in block \d+ \(success\)/.exec(paid.stdout)?.[1];
  expect(txid, paid.stdout).toBeDefined();

  await waitForStatus(page, invoice.id, 'processing');
  const paymentRow = page.getByTestId('invoice-payments').getByRole('row').filter({ hasText: txid! });
  await expect(paymentRow).toContainText('pending');
  await expect(payer.getByTestId('status')).toContainText(/Payment detected — \d+ of 19 confirmations/, {
    timeout: 15_000,
  });

  // 19 blocks: the payment's block is the façade's finalized block → paid.
  await chainCli('mine', '19');
  await waitForStatus(page, invoice.id, 'paid');
  await expect(page.locator('dd[data-field="Payment"]')).toContainText(txid!);
  await expect(page.locator('dd[data-field="Received"]')).toHaveText(`${invoice.pay_amount} USDT`);
  await expect(paymentRow).toContainText('confirmed');
  await expectNoSeriousAxeViolations(page, 'the paid Tron invoice');
  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: `e2e/screenshots/tron-invoice-paid-${width}.png`, fullPage: true });
  }
  await expect(payer.getByTestId('status')).toContainText('Paid', { timeout: 15_000 });

  const delivered = await receiver.waitFor(3);
  const events = delivered.map((req) => new Webhook(secret).verify(req.body, req.headers) as DeliveredEvent);
  expect(events.map((event) => event.type).sort()).toEqual(['invoice.created', 'invoice.paid', 'invoice.processing']);
  expect(events.find((event) => event.type === 'invoice.paid')).toMatchObject({
    environment: 'live',
    data: {
      object: {
        id: invoice.id,
        status: 'paid',
        network: 'tron',
        amount_received: invoice.pay_amount,
        payment: { tx_hash: txid },
      },
    },
  });
});
