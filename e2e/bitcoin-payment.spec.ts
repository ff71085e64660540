import { expect, test, type Page } from '@playwright/test';
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { HDKey } from '@scure/bip32';
import { Webhook } from 'standardwebhooks';
import { startReceiver, type Receiver } from '../tests/support/receiver';
import { expectNoSeriousAxeViolations } from './axe';
import { api, confirmIdentity, createKey, signUp, switchPlan, uniqueEmail } from './helpers';

// docs/settlement.md "Bitcoin" end to end, as README "Try a live payment locally › Bitcoin" describes it: the e2e
// server's bcoin regtest node (behind its Core-compatible RPC) is `bitcoin` (2 confirmations), the worker's watcher
// settles it, and the payment and the blocks are made with the README's own commands.

const ROOT = path.resolve(__dirname, '..');
const rpcUrl = `http://e2e:regtest@127.0.0.1:${process.env.E2E_BITCOIN_PORT}/`;
const run = promisify(execFile);
const chainCli = (...args: string[]) =>
  run(process.execPath, ['--import', 'tsx', 'scripts/chain/cli.ts', '--network', 'bitcoin', ...args, '--rpc', rpcUrl], {
    cwd: ROOT,
  });

interface DeliveredEvent {
  type: string;
  data: { object: { id: string; status: string; amount_received: string } };
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
  }).toPass({ timeout: 30_000 });
}

test('Bitcoin: xpub wallet (first three addresses shown before saving) → live key → invoice → paid on regtest → invoice.paid verified', async ({
  page,
  browser,
  request,
}) => {
  await signUp(page, uniqueEmail('btcpay'), 'Bitcoin Shop');
  await switchPlan(page, 'Developer');

  // A wallet of this test's own: an account vpub (regtest takes testnet keys); its first addresses known here.
  const account = HDKey.fromMasterSeed(randomBytes(32), { private: 0x045f18bc, public: 0x045f1cf6 }).derive(
    "m/84'/1'/0'",
  );
  const vpub = account.publicExtendedKey;
  await page.goto('/wallets');
  const form = page.getByRole('form', { name: 'Bitcoin wallet' });
  // A plain address is refused with the reason.
  await form
    .getByLabel('Bitcoin extended public key or descriptor')
    .fill('bcrt1qh9ruph54tnfveh7dtve3nrfx26p56rx4zuxz40');
  await form.getByRole('button', { name: 'Show addresses' }).click();
  await expect(form.getByText(/single Bitcoin address/)).toBeVisible();
  await form.getByLabel('Bitcoin extended public key or descriptor').fill(vpub);
  await form.getByRole('button', { name: 'Show addresses' }).click();
  const shown = page.getByRole('list', { name: 'First three addresses' }).getByRole('listitem');
  await expect(shown).toHaveCount(3);
  await expect(shown.first()).toHaveText(/^bcrt1q[a-z0-9]{38}$/);
  const firstAddress = await shown.first().innerText();
  await expectNoSeriousAxeViolations(page, 'the Bitcoin wallet preview');
  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: `e2e/screenshots/bitcoin-wallet-preview-${width}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.getByRole('button', { name: 'They match: save Bitcoin wallet' }).click();
  await confirmIdentity(page);
  await expect(page.getByRole('form', { name: 'Save Bitcoin wallet' }).getByText('Saved.')).toBeVisible();

  const key = await createKey(page, { label: 'BTC checkout', environment: 'live' });
  await page.goto('/webhooks');
  await page.getByLabel('Endpoint URL').fill(receiver.url);
  await page.getByRole('radio', { name: /^Live/ }).check();
  await page.getByRole('button', { name: 'Add endpoint' }).click();
  const dialog = page.getByRole('dialog', { name: `Endpoint added: ${receiver.url}` });
  await expect(dialog).toBeVisible();
  const secret = await dialog.getByLabel('Signing secret').inputValue();
  await dialog.getByRole('button', { name: 'I have saved the secret' }).click();

  // The first live invoice pays to the key's first receive address (m/0/0), the one the preview showed first.
  const created = await api(request, 'POST', '/v1/invoices', key.secret, {
    amount: '0.0015',
    currency: 'BTC',
    network: 'bitcoin',
  });
  expect(created.status).toBe(201);
  const invoice = created.json as {
    id: string;
    pay_address: string;
    pay_amount: string;
    payment_uri: string;
    hosted_url: string;
  };
  expect(invoice).toMatchObject({
    pay_address: firstAddress,
    pay_amount: '0.0015',
    payment_uri: `bitcoin:${firstAddress}?amount=0.0015`,
  });

  const payer = await (await browser.newContext()).newPage();
  await payer.goto(new URL(invoice.hosted_url).pathname);
  await expect(payer.getByTestId('status')).toContainText('Awaiting payment');
  await expect(payer.getByTestId('open-in-wallet')).toHaveAttribute('href', invoice.payment_uri);

  const paid = await chainCli('pay', invoice.payment_uri);
  const txid = /in tx ([0-9a-f]{64})/.exec(paid.stdout)?.[1];
  expect(txid, paid.stdout).toBeDefined();
  // Seen in the mempool: processing, 0 of 2 confirmations, on the payer's page without a reload.
  await expect(payer.getByTestId('status')).toContainText('Payment detected — 0 of 2 confirmations', {
    timeout: 20_000,
  });
  await expectNoSeriousAxeViolations(payer, 'the hosted page, payment detected');
  for (const width of [1280, 375]) {
    await payer.setViewportSize({ width, height: 900 });
    await payer.screenshot({ path: `e2e/screenshots/bitcoin-hosted-detected-${width}.png`, fullPage: true });
  }
  await waitForStatus(page, invoice.id, 'processing');

  await chainCli('mine', '2');
  await waitForStatus(page, invoice.id, 'paid');
  await expect(page.getByTestId('invoice-payments').getByRole('row').filter({ hasText: txid! })).toContainText(
    'confirmed',
  );
  await expect(payer.getByTestId('status')).toContainText('Paid', { timeout: 15_000 });

  const delivered = await receiver.waitFor(3);
  const events = delivered.map((r) => new Webhook(secret).verify(r.body, r.headers) as DeliveredEvent);
  expect(events.map((event) => event.type).sort()).toEqual(['invoice.created', 'invoice.paid', 'invoice.processing']);
  expect(events.find((event) => event.type === 'invoice.paid')).toMatchObject({
    data: { object: { id: invoice.id, status: 'paid', amount_received: '0.0015' } },
  });
});
