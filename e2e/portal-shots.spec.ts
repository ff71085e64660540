import { expect, test, type Page } from '@playwright/test';
import { startReceiver, type Receiver } from '../tests/support/receiver';
import { api, createKey, signUp, switchPlan, uniqueEmail } from './helpers';

/**
 * Screenshots of the API reference, the webhook pages and the payer pages at 1280 and 375 px, into
 * e2e/screenshots/portal/<SHOTS_TAG>/ (default "after"), for a person to look at. Nothing is asserted beyond
 * the pages loading: the behaviour is asserted in docs-reference, webhooks and hosted specs.
 */
const TAG = process.env.SHOTS_TAG ?? 'after';

async function shots(page: Page, name: string) {
  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: width === 1280 ? 900 : 812 });
    await page.screenshot({ path: `e2e/screenshots/portal/${TAG}/${name}-${width}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

let receiver: Receiver;
test.afterEach(async () => {
  await receiver?.close();
});

test('screenshots: reference, webhooks, payer pages', async ({ page, request }) => {
  test.setTimeout(180_000);
  // Every other request fails: the log then shows deliveries waiting for a retry beside delivered ones.
  receiver = await startReceiver((_request, index) =>
    index % 2 === 0 ? { status: 500, body: 'temporarily down' } : { status: 200, body: 'ok' },
  );
  await signUp(page, uniqueEmail('shots'));
  await switchPlan(page, 'Developer');
  const key = await createKey(page, { label: 'Screenshot key' });

  await page.goto('/docs');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await shots(page, 'docs');
  // The full reference is ~20,000 px tall: also the first screen and one operation, at each width.
  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: width === 1280 ? 900 : 812 });
    await page.screenshot({ path: `e2e/screenshots/portal/${TAG}/docs-screen-${width}.png` });
    const create = page.locator('#createInvoice, section:has(> h3:text("Create an invoice"))').first();
    if (await create.count())
      await create.screenshot({ path: `e2e/screenshots/portal/${TAG}/docs-create-invoice-${width}.png` });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto('/docs/versioning');
  await shots(page, 'docs-versioning');

  await page.goto('/webhooks');
  await page.getByLabel('Endpoint URL').fill(receiver.url);
  await page.getByLabel(/Description/).fill('Order system');
  await page.getByRole('radio', { name: /^Test/ }).check();
  await page.getByRole('button', { name: 'Add endpoint' }).click();
  const dialog = page.getByRole('dialog', { name: `Endpoint added: ${receiver.url}` });
  await dialog.getByRole('button', { name: 'I have saved the secret' }).click();
  await expect(dialog).toBeHidden();

  const pending = await api(request, 'POST', '/v1/invoices', key.secret, {
    amount: '12.50',
    currency: 'USDC',
    network: 'ethereum',
    description: 'Annual plan, 12 seats',
    order_id: 'order-1042',
  });
  const paid = await api(request, 'POST', '/v1/invoices', key.secret, {
    amount: '49.99',
    currency: 'USDT',
    network: 'tron',
    description: 'Pro plan, 1 month',
    order_id: 'order-1043',
  });
  expect(
    (await api(request, 'POST', `/v1/test/invoices/${String(paid.json.id)}/simulate-payment`, key.secret)).status,
  ).toBe(200);
  await receiver.waitFor(3, 30_000);

  // Once the attempts are recorded (the worker records them after the receiver answered).
  await expect(async () => {
    await page.goto('/webhooks');
    await expect(page.getByText('Last attempt: none yet')).toHaveCount(0, { timeout: 1000 });
  }).toPass({ timeout: 30_000 });
  await shots(page, 'webhooks-list');
  await page
    .getByRole('link', { name: /Manage/ })
    .first()
    .click();
  await expect(page.getByRole('heading', { name: 'Webhook endpoint', level: 1 })).toBeVisible();
  await shots(page, 'webhook-detail');

  await page.goto(new URL(String(pending.json.hosted_url)).pathname);
  await expect(page.getByTestId('status')).toBeVisible();
  await shots(page, 'pay-pending');
  await page.goto(new URL(String(paid.json.hosted_url)).pathname);
  await expect(page.getByTestId('status')).toHaveAttribute('data-status', 'paid');
  await shots(page, 'pay-paid');
});
