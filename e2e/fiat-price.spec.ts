import { expect, test } from '@playwright/test';
import { expectNoSeriousAxeViolations } from './axe';
import { api, confirmIdentity, createKey, signUp, switchPlan, uniqueEmail } from './helpers';

/**
 * An invoice priced in USD (docs/rates.md): the e2e chain's mock ETH/USD feed answers 2500.00, so $49.00 locks
 * 0.0196 ETH. The hosted page and the portal show both amounts and the locked rate.
 */
test('priced in USD: the hosted page shows "$49.00 = 0.0196 ETH, rate locked until …", the portal the rate', async ({
  page,
  browser,
  request,
}) => {
  await signUp(page, uniqueEmail('fiat'), 'Fiat Shop');
  await switchPlan(page, 'Developer');
  const { secret } = await createKey(page, { label: 'fiat key' });

  const rate = await api(request, 'GET', '/v1/rates?currency=ETH&price_currency=USD', secret);
  expect(rate.json).toMatchObject({ object: 'rate', rate: '0.0004', price_per_unit: '2500' });
  const created = await api(request, 'POST', '/v1/invoices', secret, {
    price_amount: '49.00',
    price_currency: 'USD',
    currency: 'ETH',
    network: 'ethereum',
    description: 'One year of hosting',
  });
  expect(created.status).toBe(201);
  expect(created.json).toMatchObject({
    amount: '0.0196',
    price_amount: '49.00',
    price_currency: 'USD',
    rate: '0.0004',
  });
  const invoice = created.json as { id: string; hosted_url: string; expires_at: string; rate_source: string };

  const payer = await (await browser.newContext()).newPage(); // signed out
  await payer.goto(new URL(invoice.hosted_url).pathname);
  await expect(payer.getByTestId('amount')).toHaveText('0.0196 ETH');
  const price = payer.getByTestId('price');
  await expect(price).toContainText('$49.00 = 0.0196 ETH, rate locked until');
  // The lock lasts as long as the invoice: the time shown is expires_at.
  await expect(price.locator('time')).toHaveAttribute('datetime', new Date(invoice.expires_at).toISOString());
  await expect(payer.getByTestId('pay-amount')).toHaveText('0.0196');
  // Keyboard: the copy buttons are reachable in order after the price line.
  await payer.keyboard.press('Tab');
  await expect(payer.getByRole('button', { name: 'Copy amount' })).toBeFocused();
  await expectNoSeriousAxeViolations(payer, 'hosted page priced in USD');
  for (const width of [1280, 375]) {
    await payer.setViewportSize({ width, height: 900 });
    await payer.screenshot({ path: `e2e/screenshots/fiat-hosted-${width}.png`, fullPage: true });
    const overflow = await payer.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow).toBeLessThanOrEqual(0);
  }

  await page.goto(`/invoices/${invoice.id}`);
  await expect(page.getByTestId('price')).toHaveText('$49.00 USD');
  await expect(page.getByTestId('rate')).toHaveText('0.0004 ETH per USD');
  await expect(page.getByTestId('rate-source')).toHaveText(invoice.rate_source);
  await expectNoSeriousAxeViolations(page, 'portal invoice priced in USD');
  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: `e2e/screenshots/fiat-portal-${width}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto('/invoices?env=test');
  await expect(page.getByTestId('invoices-table')).toContainText('$49.00 at a locked rate');
});

test('billing: the payment tolerance is refused above 5 %, saved after the step-up, and audited', async ({ page }) => {
  await signUp(page, uniqueEmail('tolerance'), 'Tolerant Shop');
  await page.goto('/billing');
  const form = page.getByRole('form', { name: 'Payment tolerance' });
  const field = form.getByLabel('Payment tolerance (%)');
  await expect(field).toHaveValue('0');
  // Keyboard only: into the field, type, submit with Enter.
  await field.focus();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.type('5.5');
  await page.keyboard.press('Enter');
  await expect(form.getByText('The tolerance is at most 5 %')).toBeVisible();
  await expect(field).toHaveValue('5.5'); // kept beside its error

  await field.fill('1.50');
  await form.getByRole('button', { name: 'Save tolerance' }).click();
  await confirmIdentity(page);
  await expect(form.getByText('Saved: 1.5 %.')).toBeVisible();
  await page.reload();
  await expect(page.getByLabel('Payment tolerance (%)')).toHaveValue('1.5');
  await expectNoSeriousAxeViolations(page, 'billing with the payment tolerance');
  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: `e2e/screenshots/fiat-billing-${width}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto('/audit');
  await expect(page.getByText('Payment tolerance changed')).toBeVisible();
});

test('portal: a new invoice priced in EUR is converted at the locked rate (€10.00 = 11 USDT at EUR/USD 1.10)', async ({
  page,
}) => {
  await signUp(page, uniqueEmail('fiat-portal'), 'Euro Shop');
  await page.goto('/invoices/new');
  await page.getByLabel('Amount').fill('10');
  await page.getByLabel('Priced in').selectOption('EUR');
  await expect(page.getByText('A price in EUR such as 49.99')).toBeVisible();
  await page.getByRole('button', { name: 'Create invoice' }).click();
  await expect(page.getByTestId('price')).toHaveText('€10.00 EUR');
  await expect(page.locator('[data-field="Amount"]')).toContainText('11.00 USDT');
  await expect(page.getByTestId('rate-source')).toContainText('USDT/USD@');
  await page.setViewportSize({ width: 375, height: 900 });
  await page.goto('/invoices/new');
  await page.screenshot({ path: 'e2e/screenshots/fiat-new-invoice-375.png', fullPage: true });
});
