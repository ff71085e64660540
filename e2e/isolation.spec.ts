import { expect, test } from '@playwright/test';
import { alerts, api, createKey, keyRow, signUp, switchPlan, TEST_INVOICE, uniqueEmail } from './helpers';

test("flow 4: a second user cannot see or touch the first user's keys or invoices, even with their ids in URLs and forms", async ({
  browser,
  page,
  request,
}) => {
  // User A: a key and a test invoice.
  await signUp(page, uniqueEmail('alice'), 'Alice workspace');
  await switchPlan(page, 'Developer');
  const aliceKey = await createKey(page, { label: 'Alice secret key' });
  const aliceKeyId = await keyRow(page, aliceKey.label).getAttribute('data-key-id');
  expect(aliceKeyId).toMatch(/^\d+$/);
  const aliceInvoice = await api(request, 'POST', '/v1/invoices', aliceKey.secret, TEST_INVOICE);
  expect(aliceInvoice.status).toBe(201);
  const aliceInvoiceId = String(aliceInvoice.json.id);

  // User B, in a browser context of their own.
  const bobContext = await browser.newContext();
  const bob = await bobContext.newPage();
  await signUp(bob, uniqueEmail('bob'), 'Bob workspace');
  await switchPlan(bob, 'Developer');
  await expect(bob.getByTestId('workspace-name')).toHaveText('Bob workspace');

  // Lists show nothing of A's.
  await bob.goto('/keys');
  await expect(bob.getByText('No keys yet.')).toBeVisible();
  await expect(bob.getByText(aliceKey.label)).toHaveCount(0);
  await expect(bob.getByText(aliceKey.secret.slice(0, 13))).toHaveCount(0);
  await bob.goto('/invoices?env=test');
  await expect(bob.getByTestId('invoices-empty')).toBeVisible();
  await bob.goto('/usage');
  await expect(bob.getByText(aliceKey.label)).toHaveCount(0);

  // A's invoice id in URLs: detail is a 404, as a list cursor it is refused.
  const detail = await bob.goto(`/invoices/${aliceInvoiceId}`);
  expect(detail?.status()).toBe(404);
  await expect(bob.getByText(aliceInvoiceId)).toHaveCount(0);
  await bob.goto(`/invoices?env=test&after=${aliceInvoiceId}`);
  await expect(alerts(bob)).toContainText('does not name an invoice of this workspace');

  // A's key id forged into B's revoke form: "not found", and A's key keeps working.
  const bobKey = await createKey(bob, { label: 'Bob key' });
  const bobRow = keyRow(bob, bobKey.label);
  await bobRow.getByRole('button', { name: `Revoke key ${bobKey.label}` }).click();
  await bobRow
    .locator('input[name="keyId"]')
    .evaluate((input, id) => ((input as HTMLInputElement).value = String(id)), aliceKeyId);
  await bob.getByRole('dialog').getByRole('button', { name: 'Revoke key' }).click();
  await expect(alerts(bob)).toContainText(`API key ${aliceKeyId} not found`);
  await expect(bobRow).toContainText('active');
  expect((await api(request, 'GET', '/v1/me', aliceKey.secret)).status).toBe(200);

  // A's invoice id forged into B's simulate-payment and cancel forms: not found, A's invoice stays pending.
  const bobInvoice = await api(request, 'POST', '/v1/invoices', bobKey.secret, TEST_INVOICE);
  expect(bobInvoice.status).toBe(201);
  await bob.goto(`/invoices/${String(bobInvoice.json.id)}`);
  for (const button of ['Simulate payment', 'Cancel invoice']) {
    // The previous attempt refreshes the page; a re-render then would put the real id back into the form.
    await bob.waitForLoadState('networkidle');
    // Cancel asks first: its form is in the confirmation dialog.
    if (button === 'Cancel invoice') await bob.getByRole('button', { name: button }).click();
    const scope = button === 'Cancel invoice' ? bob.getByRole('dialog') : bob.locator('main');
    const form = scope.locator('form').filter({ has: bob.getByRole('button', { name: button }) });
    await form
      .locator('input[name="invoiceId"]')
      .evaluate((input, id) => ((input as HTMLInputElement).value = id), aliceInvoiceId);
    await form.getByRole('button', { name: button }).click();
    await expect(alerts(bob)).toContainText('No invoice with this id exists in this workspace and environment');
  }
  const aliceStill = await api(request, 'GET', `/v1/invoices/${aliceInvoiceId}`, aliceKey.secret);
  expect(aliceStill.json.status).toBe('pending');
  // B's own invoice was not touched either.
  expect((await api(request, 'GET', `/v1/invoices/${String(bobInvoice.json.id)}`, bobKey.secret)).json.status).toBe(
    'pending',
  );

  // And A still sees their own key active and invoice pending in the portal.
  await page.goto('/keys');
  await expect(keyRow(page, aliceKey.label)).toContainText('active');
  await bobContext.close();
});
