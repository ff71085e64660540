import { expect, test, type Page } from '@playwright/test';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { Webhook } from 'standardwebhooks';
import { createTestClient, http } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { startReceiver, type Receiver } from '../tests/support/receiver';
import { expectNoSeriousAxeViolations } from './axe';
import { api, confirmIdentity, createKey, signUp, switchPlan, uniqueEmail } from './helpers';

// docs/settlement.md end to end, as README "Try a live payment locally" describes it: the e2e server's local hardhat chain
// is `ethereum` (3 confirmations) and the worker's watcher settles it; the payment is made with the README's
// own command (`npm run chain -- pay <payment_uri>`); the webhook endpoint is a live one, so it is https — a
// receiver on 127.0.0.1 with the certificate e2e/server.ts made the worker trust (NODE_EXTRA_CA_CERTS).

const ROOT = path.resolve(__dirname, '..');
const rpcUrl = `http://127.0.0.1:${process.env.E2E_CHAIN_PORT}`;
const run = promisify(execFile);

interface DeliveredEvent {
  id: string;
  type: string;
  environment: string;
  data: { object: { id: string; status: string; amount_received: string; payment: { tx_hash: string } | null } };
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

/** The portal's invoice page, reloaded until its Status reads `status`. */
async function waitForStatus(page: Page, invoiceId: string, status: string) {
  await expect(async () => {
    await page.goto(`/invoices/${invoiceId}`);
    await expect(page.locator('dd[data-field="Status"]')).toHaveText(status, { timeout: 1000 });
  }).toPass({ timeout: 30_000 });
}

test('live payment: wallet + live key + live https endpoint → API invoice → paid on the local chain → portal shows it paid with its transaction → invoice.paid verified', async ({
  page,
  browser,
  request,
}) => {
  await signUp(page, uniqueEmail('livepay'), 'Live Shop');
  await switchPlan(page, 'Developer');

  // The payout wallet for ethereum: an address of this test's own.
  const wallet = privateKeyToAccount(generatePrivateKey()).address;
  await page.goto('/wallets');
  const ethereum = page.getByRole('form', { name: 'Ethereum wallet' });
  await ethereum.getByLabel('Ethereum address').fill(wallet);
  await ethereum.getByRole('button', { name: 'Save Ethereum' }).click();
  await confirmIdentity(page); // wallet changes need the password again (step-up)
  await expect(ethereum.getByText('Saved.')).toBeVisible();

  const key = await createKey(page, { label: 'Live checkout', environment: 'live' });

  // A live endpoint: https, on 127.0.0.1 (WEBHOOK_ALLOW_PRIVATE_NETWORKS lifts the address rule, not the https one).
  await page.goto('/webhooks');
  await page.getByLabel('Endpoint URL').fill(receiver.url);
  await page.getByRole('radio', { name: /^Live/ }).check();
  await page.getByRole('button', { name: 'Add endpoint' }).click();
  const dialog = page.getByRole('dialog', { name: `Endpoint added: ${receiver.url}` });
  await expect(dialog).toBeVisible();
  const secret = await dialog.getByLabel('Signing secret').inputValue();
  await dialog.getByRole('button', { name: 'I have saved the secret' }).click();

  // A live invoice through the API with the live key: paid to the wallet, with a unique pay_amount.
  const created = await api(request, 'POST', '/v1/invoices', key.secret, {
    amount: '25',
    currency: 'USDT',
    network: 'ethereum',
    order_id: 'live-e2e-1',
  });
  expect(created.status).toBe(201);
  const invoice = created.json as {
    id: string;
    environment: string;
    pay_address: string;
    pay_amount: string;
    payment_uri: string;
    hosted_url: string;
  };
  expect(invoice).toMatchObject({ environment: 'live', pay_address: wallet });
  // amount + a suffix of at most 0.009999 (docs/settlement.md), unique among this wallet's open USDT invoices.
  expect(Number(invoice.pay_amount)).toBeGreaterThanOrEqual(25);
  expect(Number(invoice.pay_amount)).toBeLessThan(25.01);
  expect(invoice.payment_uri).toMatch(
    new RegExp(`^ethereum:0x[0-9a-fA-F]{40}@31337/transfer\\?address=${wallet}&uint256=\\d+$`),
  );

  // The payer's page, open before the payment: it follows the invoice by itself.
  const payer = await (await browser.newContext()).newPage();
  await payer.goto(new URL(invoice.hosted_url).pathname);
  await expect(payer.getByTestId('status')).toContainText('Awaiting payment');

  // Paid with the README's command, from the chain's funded development account.
  const paid = await run(
    process.execPath,
    ['--import', 'tsx', 'scripts/chain/cli.ts', 'pay', invoice.payment_uri, '--rpc', rpcUrl],
    { cwd: ROOT },
  );
  const txHash = /paid: tx (0x[0-9a-f]{64}) in block \d+ \(success\)/.exec(paid.stdout)?.[1];
  expect(txHash, paid.stdout).toBeDefined();

  // First inclusion → processing, the payment listed with its transaction and 1 of 3 confirmations.
  await waitForStatus(page, invoice.id, 'processing');
  const paymentRow = page.getByTestId('invoice-payments').getByRole('row').filter({ hasText: txHash! });
  await expect(paymentRow).toContainText('pending');
  await expect(payer.getByTestId('status')).toContainText(/Payment detected — \d of 3 confirmations/, {
    timeout: 15_000,
  });

  // Two more blocks → 3 confirmations → the receipt is re-read → paid.
  await createTestClient({ mode: 'hardhat', transport: http(rpcUrl) }).mine({ blocks: 2 });
  await waitForStatus(page, invoice.id, 'paid');
  await expect(page.locator('dd[data-field="Payment"]')).toContainText(txHash!);
  await expect(page.locator('dd[data-field="Received"]')).toHaveText(`${invoice.pay_amount} USDT`);
  await expect(paymentRow).toContainText('confirmed');
  await expect(paymentRow.locator('[data-field="confirmations"]')).toHaveText('3');
  await expectNoSeriousAxeViolations(page, 'the paid live invoice');
  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: `e2e/screenshots/live-invoice-paid-${width}.png`, fullPage: true });
  }
  await expect(payer.getByTestId('status')).toContainText('Paid', { timeout: 15_000 });

  // The live endpoint received invoice.created, invoice.processing and invoice.paid, each verified with the
  // standardwebhooks package (not ordered: delivery is at least once, in any order).
  const delivered = await receiver.waitFor(3);
  const events = delivered.map(
    (request) => new Webhook(secret).verify(request.body, request.headers) as DeliveredEvent,
  );
  expect(events.map((event) => event.type).sort()).toEqual(['invoice.created', 'invoice.paid', 'invoice.processing']);
  const paidEvent = events.find((event) => event.type === 'invoice.paid');
  expect(paidEvent).toMatchObject({
    environment: 'live',
    data: {
      object: { id: invoice.id, status: 'paid', amount_received: invoice.pay_amount, payment: { tx_hash: txHash } },
    },
  });
  expect(delivered.find((request) => request.headers['webhook-id'] === paidEvent?.id)).toBeDefined();
});
