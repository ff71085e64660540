import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import QRCode from 'qrcode';
import { expectNoSeriousAxeViolations } from './axe';
import { api, createKey, signUp, switchPlan, uniqueEmail } from './helpers';

/** The hosted page (docs/hosted-page.md), opened signed out in a fresh context, through each state. */

interface Invoice {
  id: string;
  hosted_url: string;
  pay_amount: string;
  pay_address: string;
  payment_uri: string;
}

async function merchantKey(page: Page, tag: string): Promise<string> {
  await signUp(page, uniqueEmail(tag), `Acme ${tag}`);
  await switchPlan(page, 'Developer');
  return (await createKey(page, { label: `${tag} key` })).secret;
}

async function createInvoice(
  request: APIRequestContext,
  secret: string,
  extra: Record<string, unknown> = {},
): Promise<Invoice> {
  const created = await api(request, 'POST', '/v1/invoices', secret, {
    amount: '12.50',
    currency: 'USDC',
    network: 'base',
    description: 'Order of two mugs',
    metadata: { internal_note: 'secret-metadata-value' },
    order_id: 'order-hidden-42',
    redirect_url: 'https://shop.example/thanks',
    ...extra,
  });
  expect(created.status).toBe(201);
  return created.json as unknown as Invoice;
}

/** The path of hosted_url (its origin is PUBLIC_URL, not the test server's address). */
const payPath = (invoice: Invoice) => new URL(invoice.hosted_url).pathname;

async function screenshots(page: Page, name: string) {
  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: `e2e/screenshots/hosted-${name}-${width}.png`, fullPage: true });
    if (width === 375) {
      const overflow = await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
      expect(overflow, `horizontal overflow at 375 px (${name})`).toBeLessThanOrEqual(0);
    }
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

/** The QR's module paths: the d attributes of the SVG the page shows and of the same URI re-rendered here. */
async function qrMatches(page: Page, uri: string) {
  const expected = await QRCode.toString(uri, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
  const expectedPaths = [...expected.matchAll(/ d="([^"]+)"/g)].map((m) => m[1]);
  const shownPaths = await page
    .getByTestId('qr')
    .locator('svg path')
    .evaluateAll((paths) => paths.map((p) => p.getAttribute('d')));
  expect(expectedPaths.length).toBeGreaterThan(0);
  expect(shownPaths).toEqual(expectedPaths);
}

test('hosted page: a test invoice shows every field, QR = payment_uri, CSP, no leaks; Simulate payment → paid with return link', async ({
  page,
  browser,
  request,
}) => {
  const secret = await merchantKey(page, 'hosted');
  const other = await createInvoice(request, secret, { description: 'Another invoice entirely' });
  const invoice = await createInvoice(request, secret);
  expect(invoice.hosted_url).toMatch(/\/pay\/[0-9a-f]{64}$/);
  expect(invoice.hosted_url).not.toContain(invoice.id);

  // The portal's invoice detail shows the hosted link with a copy button.
  await page.goto(`/invoices/${invoice.id}`);
  await expect(page.getByTestId('hosted-url')).toHaveText(invoice.hosted_url);
  await expect(page.getByRole('button', { name: 'Copy hosted link' })).toBeVisible();
  await page.screenshot({ path: 'e2e/screenshots/hosted-portal-detail-1280.png', fullPage: true });

  const payer = await (await browser.newContext()).newPage(); // signed out
  const response = await payer.goto(payPath(invoice));
  expect(response?.status()).toBe(200);
  const headers = response!.headers();
  expect(headers['content-security-policy']).toMatch(/script-src 'self' 'nonce-[^']+' 'strict-dynamic'/);
  expect(headers['content-security-policy']).toContain("default-src 'none'");
  expect(headers['cache-control']).toContain('no-store');
  expect(headers['x-robots-tag']).toContain('noindex');
  await expect(payer.locator('meta[name="robots"]')).toHaveAttribute('content', /noindex/);
  const cspErrors: string[] = [];
  payer.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) cspErrors.push(message.text());
  });

  await expect(payer.getByTestId('test-banner')).toContainText('Test invoice — do not send funds');
  await expect(payer.getByTestId('workspace-name')).toHaveText('Acme hosted');
  await expect(payer.getByTestId('amount')).toHaveText('12.5 USDC');
  await expect(payer.getByTestId('description')).toHaveText('Order of two mugs');
  await expect(payer.getByTestId('network')).toHaveText('Base');
  await expect(payer.getByTestId('pay-amount')).toHaveText(invoice.pay_amount);
  await expect(payer.getByTestId('pay-address')).toHaveText(invoice.pay_address);
  await expect(payer.getByTestId('warning')).toContainText('Send only USDC on Base');
  await expect(payer.getByRole('button', { name: 'Copy amount' })).toBeVisible();
  await expect(payer.getByRole('button', { name: 'Copy address' })).toBeVisible();
  await expect(payer.getByTestId('status')).toContainText('Awaiting payment');
  await expect(payer.getByTestId('countdown')).toHaveText(/^(59|60):\d\d$/);
  await qrMatches(payer, invoice.payment_uri);
  // A payer on a phone opens their wallet app with the same payment request (EIP-681 here).
  await expect(payer.getByRole('link', { name: 'Open in wallet' })).toHaveAttribute('href', invoice.payment_uri);

  // The countdown ticks: the client script runs under the CSP.
  const first = await payer.getByTestId('countdown').textContent();
  await expect(payer.getByTestId('countdown')).not.toHaveText(first!);

  // Nothing else of the workspace.
  const html = await payer.content();
  for (const hidden of [
    'secret-metadata-value',
    'internal_note',
    'order-hidden-42',
    invoice.id,
    other.id,
    'Another invoice entirely',
    secret,
    secret.slice(0, 13),
  ]) {
    expect(html, `page leaks ${hidden}`).not.toContain(hidden);
  }

  await expectNoSeriousAxeViolations(payer, 'the payment page, the awaiting state');
  await screenshots(payer, 'awaiting');

  // Keyboard: tab reaches the copy buttons and the simulate button; Enter simulates.
  const simulate = payer.getByRole('button', { name: 'Simulate payment' });
  for (let i = 0; i < 10 && !(await simulate.evaluate((el) => el === document.activeElement)); i += 1)
    await payer.keyboard.press('Tab');
  await expect(simulate).toBeFocused();
  const before = payer.url();
  await payer.keyboard.press('Enter');
  await expect(payer.getByTestId('status')).toContainText('Paid');
  expect(payer.url()).toBe(before); // no reload, no navigation
  await expect(payer.getByRole('link', { name: 'Return to merchant' })).toHaveAttribute(
    'href',
    'https://shop.example/thanks',
  );
  await expect(payer.getByTestId('payment-details')).toHaveCount(0);
  // The receipt appears without a reload: amount, network, date, transaction, order reference, invoice id.
  const receipt = payer.getByTestId('receipt');
  await expect(receipt).toBeVisible();
  await expect(receipt.getByTestId('receipt-amount')).toContainText('12.5 USDC');
  await expect(receipt).toContainText('Base');
  await expect(receipt.getByTestId('receipt-paid-at').locator('time')).toHaveAttribute('datetime', /^\d{4}-\d\d-\d\dT/);
  await expect(receipt.getByTestId('receipt-transaction')).toContainText('Simulated payment (test invoice)');
  await expect(receipt.getByTestId('receipt-order')).toHaveText('order-hidden-42');
  await expect(receipt.getByTestId('receipt-invoice')).toHaveText(invoice.id);
  await expect(receipt.getByRole('button', { name: 'Print receipt' })).toBeVisible();
  expect(payer.url()).toBe(before);
  // Printed: the controls are left out.
  await payer.emulateMedia({ media: 'print' });
  await expect(receipt.getByRole('button', { name: 'Print receipt' })).toBeHidden();
  await payer.emulateMedia({ media: 'screen' });
  // Still nothing else of the workspace once paid.
  const paidHtml = await payer.content();
  for (const hidden of ['secret-metadata-value', 'internal_note', other.id, 'Another invoice entirely'])
    expect(paidHtml, `receipt leaks ${hidden}`).not.toContain(hidden);
  await expectNoSeriousAxeViolations(payer, 'the payment page, the paid state');
  await screenshots(payer, 'paid');
  expect(cspErrors).toEqual([]);

  // The API agrees: the page went through simulateInvoicePayment.
  const paid = await api(request, 'GET', `/v1/invoices/${invoice.id}`, secret);
  expect(paid.json).toMatchObject({ status: 'paid', payment: { simulated: true } });
});

test('hosted page: a payment made through the API while the page is open shows up by itself', async ({
  page,
  browser,
  request,
}) => {
  const secret = await merchantKey(page, 'hostedlive');
  const invoice = await createInvoice(request, secret, { redirect_url: undefined });
  const payer = await (await browser.newContext()).newPage();
  await payer.goto(payPath(invoice));
  await expect(payer.getByTestId('status')).toContainText('Awaiting payment');
  const paid = await api(request, 'POST', `/v1/test/invoices/${invoice.id}/simulate-payment`, secret);
  expect(paid.status).toBe(200);
  await expect(payer.getByTestId('status')).toContainText('Paid', { timeout: 8000 });
  // No redirect_url: no return link.
  await expect(payer.getByRole('link', { name: 'Return to merchant' })).toHaveCount(0);
});

test('hosted page: cancelled and expired invoices show their state and nothing to pay', async ({
  page,
  browser,
  request,
}) => {
  const secret = await merchantKey(page, 'hostedends');
  const cancelled = await createInvoice(request, secret);
  expect((await api(request, 'POST', `/v1/invoices/${cancelled.id}/cancel`, secret)).status).toBe(200);
  const payer = await (await browser.newContext()).newPage();
  await payer.goto(payPath(cancelled));
  await expect(payer.getByTestId('status')).toContainText('This invoice was cancelled');
  await expect(payer.getByTestId('payment-details')).toHaveCount(0);
  await expect(payer.getByRole('button', { name: /Copy|Simulate/ })).toHaveCount(0);
  expect(await payer.content()).not.toContain(cancelled.pay_address);
  await expectNoSeriousAxeViolations(payer, 'the payment page, the cancelled state');
  await screenshots(payer, 'cancelled');

  // Expiry without waiting: the payer's clock is moved past expires_at (300 s); the page turns expired by itself.
  const expiring = await createInvoice(request, secret, { expires_in: 300 });
  await payer.clock.install();
  await payer.goto(payPath(expiring));
  await expect(payer.getByTestId('status')).toContainText('Awaiting payment');
  await payer.clock.fastForward('05:10');
  await expect(payer.getByTestId('status')).toContainText('This invoice has expired');
  await expect(payer.getByTestId('payment-details')).toHaveCount(0);
  await expect(payer.getByRole('button', { name: /Copy|Simulate/ })).toHaveCount(0);
  await expectNoSeriousAxeViolations(payer, 'the payment page, the expired state');
  await screenshots(payer, 'expired');
});

test('hosted page: a mangled token, the invoice id and unknown tokens are a plain 404', async ({ page, request }) => {
  const secret = await merchantKey(page, 'hosted404');
  const invoice = await createInvoice(request, secret);
  const path = payPath(invoice);
  const last = path.at(-1) === '0' ? '1' : '0';
  for (const wrong of [`${path.slice(0, -1)}${last}`, `${path}0`, path.slice(0, -1), `/pay/${invoice.id}`, '/pay/x']) {
    expect((await request.get(wrong)).status(), wrong).toBe(404);
  }
  expect((await request.get(`${path.slice(0, -1)}${last}/status`)).status()).toBe(404);
  const status = await request.get(`${path}/status`);
  expect(status.status()).toBe(200);
  // Status fields only (amount_received and amount_due: what is still due after a partial Bitcoin payment).
  expect(Object.keys(await status.json()).sort()).toEqual([
    'amount_due',
    'amount_received',
    'confirmations',
    'confirmations_required',
    'currency',
    'expires_at',
    'redirect_url',
    'status',
  ]);
});
