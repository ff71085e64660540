import { expect, test } from '@playwright/test';
import { api, createKey, keyRow, signUp, switchPlan, TEST_INVOICE, uniqueEmail } from './helpers';

test('flow 1: sign up → Trial notice → Developer → read-only test key shown once → scope 403 → revoke → 401', async ({
  page,
  request,
}) => {
  await signUp(page, uniqueEmail('flow1'));

  // A new workspace starts on Trial: the overview says there is no API access and links to Billing.
  await expect(page.getByTestId('plan-name')).toHaveText('Trial');
  await expect(page.getByText('Your Trial plan has no API access')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Choose a plan in Billing' })).toHaveAttribute('href', '/billing');

  await switchPlan(page, 'Developer');
  await page.getByRole('navigation', { name: 'Portal' }).getByRole('link', { name: 'Overview' }).click();
  await expect(page.getByTestId('plan-name')).toHaveText('Developer');
  await expect(page.getByText('has no API access')).toHaveCount(0);

  // The response that carries the secret (the server action's) is not cacheable.
  const actionResponse = page.waitForResponse(
    (r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/keys',
  );
  const key = await createKey(page, {
    label: 'Read-only e2e key',
    scopes: ['invoices:read'],
    screenshot: 'e2e/screenshots/key-created-dialog.png',
  });
  expect((await actionResponse).headers()['cache-control']).toContain('no-store');
  expect(await page.content()).not.toContain(key.secret);

  const row = keyRow(page, key.label);
  await expect(row).toContainText(key.secret.slice(0, 13));
  await expect(row).toContainText('Test');
  await expect(row).toContainText('invoices:read');
  await expect(row).not.toContainText('invoices:write');
  await expect(row).toContainText('active');
  await page.screenshot({ path: 'e2e/screenshots/keys-table.png', fullPage: true });

  const me = await api(request, 'GET', '/v1/me', key.secret);
  expect(me.status).toBe(200);
  expect(me.json.key).toMatchObject({
    label: key.label,
    prefix: key.secret.slice(0, 13),
    environment: 'test',
    scopes: ['invoices:read'],
  });

  const write = await api(request, 'POST', '/v1/invoices', key.secret, TEST_INVOICE);
  expect(write.status).toBe(403);
  expect(write.json.detail).toBe('API key scope invoices:write is required');

  // Revoke, with a confirmation step.
  await page.reload();
  await row.getByRole('button', { name: `Revoke key ${key.label}` }).click();
  await page
    .getByRole('dialog', { name: `Revoke “${key.label}”?` })
    .getByRole('button', { name: 'Revoke key' })
    .click();
  await expect(page.getByRole('status').filter({ hasText: `Key “${key.label}” revoked` })).toBeVisible();
  await expect(row).toContainText('revoked');
  await expect(row.getByRole('button', { name: /Revoke/ })).toHaveCount(0);

  const after = await api(request, 'GET', '/v1/me', key.secret);
  expect(after.status).toBe(401);
  expect(after.json.code).toBe('revoked_api_key');

  // Reloaded, the keys page never contains the secret again (nor its random part), and is not cacheable.
  const reload = await page.reload();
  expect(reload?.headers()['cache-control']).toContain('no-store');
  const html = await page.content();
  expect(html).not.toContain(key.secret);
  expect(html).not.toContain(key.secret.slice(5));
  await expect(page.getByRole('dialog')).toHaveCount(0);
});

test('flow 2: key without scopes has both; API-created test invoice shows in test view only; simulate payment in the portal → API says paid', async ({
  page,
  request,
}) => {
  await signUp(page, uniqueEmail('flow2'));
  await switchPlan(page, 'Developer');
  await expect(page.getByText('Leave both unchecked to give the key both scopes.')).toHaveCount(0); // only on the keys page
  await page.goto('/keys');
  await expect(page.getByText('Leave both unchecked to give the key both scopes.')).toBeVisible();
  const key = await createKey(page, { label: 'Both scopes key' });

  const row = keyRow(page, key.label);
  await expect(row).toContainText('invoices:read');
  await expect(row).toContainText('invoices:write');
  const me = await api(request, 'GET', '/v1/me', key.secret);
  expect(me.json.key).toMatchObject({ scopes: ['invoices:read', 'invoices:write'] });

  const created = await api(request, 'POST', '/v1/invoices', key.secret, TEST_INVOICE);
  expect(created.status).toBe(201);
  const invoiceId = String(created.json.id);
  expect(created.json).toMatchObject({
    environment: 'test',
    status: 'pending',
    amount: '10',
    currency: 'USDT',
    network: 'tron',
  });

  await page.getByRole('navigation', { name: 'Portal' }).getByRole('link', { name: 'Invoices' }).click();
  await expect(page.getByRole('link', { name: invoiceId })).toBeVisible();

  await page.getByRole('navigation', { name: 'Environment' }).getByRole('link', { name: 'Live' }).click();
  await expect(page).toHaveURL(/env=live/);
  await expect(page.getByTestId('invoices-empty')).toBeVisible();
  await expect(page.getByRole('link', { name: invoiceId })).toHaveCount(0);

  await page.getByRole('navigation', { name: 'Environment' }).getByRole('link', { name: 'Test' }).click();
  // The form's hidden env field must be the test page's before filtering (else it filters the live list).
  await expect(page).toHaveURL(/env=test/);
  // The status filter narrows the list.
  await page.getByLabel('Status').selectOption('paid');
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page.getByTestId('invoices-empty')).toBeVisible();
  await page.getByLabel('Status').selectOption('pending');
  await page.getByRole('button', { name: 'Apply' }).click();
  await page.getByRole('link', { name: invoiceId }).click();

  await expect(page.getByRole('heading', { name: 'Invoice', level: 1 })).toBeVisible();
  await expect(page.locator('[data-field="Invoice id"]')).toContainText(invoiceId);
  await expect(page.locator('[data-field="Status"]')).toHaveText('pending');
  await page.getByRole('button', { name: 'Simulate payment' }).click();
  await expect(page.locator('[data-field="Status"]')).toHaveText('paid');
  await expect(page.locator('[data-field="Payment"]')).toContainText('(simulated)');

  const read = await api(request, 'GET', `/v1/invoices/${invoiceId}`, key.secret);
  expect(read.status).toBe(200);
  expect(read.json.status).toBe('paid');
  expect(read.json.payment).toMatchObject({ simulated: true, amount: '10' });
});
