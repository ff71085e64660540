import { expect, test } from '@playwright/test';
import { api, createKey, keyRow, signUp, switchPlan, uniqueEmail } from './helpers';

test('roll a key with a grace period: both secrets work, then only the new one; the request log shows the calls', async ({
  page,
  request,
}) => {
  await signUp(page, uniqueEmail('roll'));
  await switchPlan(page, 'Developer');
  const key = await createKey(page, { label: 'Rolled e2e key' });
  expect((await api(request, 'GET', '/v1/me', key.secret)).status).toBe(200);

  // Roll, keeping the old secret for 1 hour: the new one is shown once.
  await page.goto('/keys');
  const row = keyRow(page, key.label).filter({ hasText: key.secret.slice(0, 13) });
  await row.getByRole('button', { name: `Roll key ${key.label}` }).click();
  await row.getByLabel('Old secret stops working').selectOption({ label: 'In 1 hour' });
  await page.screenshot({ path: 'e2e/screenshots/key-roll-form.png', fullPage: true });
  await row.getByRole('button', { name: 'Roll key' }).click();
  const dialog = page.getByRole('dialog', { name: `Key rolled: ${key.label}` });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByText(/The old secret keeps working until/)).toBeVisible();
  const rolled = await dialog.getByLabel('New secret').inputValue();
  expect(rolled).toMatch(/^test_[0-9A-Za-z]{36}$/);
  expect(rolled).not.toBe(key.secret);
  await page.screenshot({ path: 'e2e/screenshots/key-rolled-dialog.png', fullPage: true });
  await dialog.getByRole('button', { name: 'I have saved the secret' }).click();
  await expect(dialog).toBeHidden();

  // Both valid during the grace period; the old row says when it stops.
  const old = await api(request, 'GET', '/v1/me', key.secret);
  const fresh = await api(request, 'GET', '/v1/me', rolled);
  expect([old.status, fresh.status]).toEqual([200, 200]);
  await page.reload();
  await expect(keyRow(page, key.secret.slice(0, 13))).toContainText(/expires in (60 min|1 h)/);

  // Roll the new key again with "Now": the one just rolled stops at once, only the newest works.
  const newRow = keyRow(page, rolled.slice(0, 13));
  await newRow.getByRole('button', { name: `Roll key ${key.label}` }).click();
  await newRow.getByLabel('Old secret stops working').selectOption({ label: 'Now' });
  await newRow.getByRole('button', { name: 'Roll key' }).click();
  const second = page.getByRole('dialog', { name: `Key rolled: ${key.label}` });
  await expect(second.getByText('The old secret has stopped working.')).toBeVisible();
  const newest = await second.getByLabel('New secret').inputValue();
  await second.getByRole('button', { name: 'I have saved the secret' }).click();
  expect((await api(request, 'GET', '/v1/me', rolled)).status).toBe(401);
  expect((await api(request, 'GET', '/v1/me', newest)).status).toBe(200);
  await page.reload();
  await expect(keyRow(page, rolled.slice(0, 13))).toContainText('expired');
  await page.screenshot({ path: 'e2e/screenshots/keys-after-roll.png', fullPage: true });

  // The request log shows the calls just made (written within a second: reload until they are there).
  await page.getByRole('navigation', { name: 'Portal' }).getByRole('link', { name: 'Request log' }).click();
  await expect(page.getByRole('heading', { name: 'Request log', level: 1 })).toBeVisible();
  await expect(async () => {
    await page.reload();
    await expect(page.getByTestId('request-log').getByRole('row')).toHaveCount(1 + 5);
  }).toPass({ timeout: 15_000 });
  const log = page.getByTestId('request-log');
  await expect(log.getByRole('row').filter({ hasText: '401' })).toHaveCount(1);
  await expect(log.getByRole('row').filter({ hasText: '/v1/me' })).toHaveCount(5);
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.screenshot({ path: 'e2e/screenshots/request-log-1280.png', fullPage: true });
  await page.setViewportSize({ width: 375, height: 800 });
  await page.screenshot({ path: 'e2e/screenshots/request-log-375.png', fullPage: true });
  await page.setViewportSize({ width: 1280, height: 900 });

  // Filter by status class, then open one request by its id.
  await page.getByLabel('Status').selectOption('4xx');
  await page.getByRole('button', { name: 'Filter' }).click();
  await expect(page.getByTestId('request-log').getByRole('row')).toHaveCount(2);
  const requestLink = page.getByTestId('request-log').getByRole('link', { name: /^req_/ });
  const requestId = await requestLink.innerText();
  await requestLink.click();
  await expect(page.getByRole('heading', { name: `Request ${requestId}` })).toBeVisible();
  await expect(page.getByTestId('request-detail')).toContainText('401');
  await expect(page.getByTestId('request-detail')).not.toContainText(rolled);

  // The audit log lists the changes, with who did them.
  await page.getByRole('navigation', { name: 'Portal' }).getByRole('link', { name: 'Audit log' }).click();
  await expect(page.getByRole('heading', { name: 'Audit log', level: 1 })).toBeVisible();
  const audit = page.getByTestId('audit-log');
  await expect(audit.locator('tr[data-action="key.rolled"]')).toHaveCount(2);
  await expect(audit.locator('tr[data-action="key.created"]')).toHaveCount(1);
  await expect(audit.locator('tr[data-action="plan.changed"]')).toHaveCount(1);
  await expect(audit.locator('tr[data-action="user.signed_in"]')).toHaveCount(1); // sign-up ends in a sign-in
  await page.screenshot({ path: 'e2e/screenshots/audit-log-1280.png', fullPage: true });
  await page.setViewportSize({ width: 375, height: 800 });
  await page.screenshot({ path: 'e2e/screenshots/audit-log-375.png', fullPage: true });
});

test('create a key with an expiry and an IP allowlist: validated, shown, enforced', async ({ page, request }) => {
  await signUp(page, uniqueEmail('allowlist'));
  await switchPlan(page, 'Developer');
  await page.goto('/keys');
  await page.getByLabel('Label').fill('Office only');
  await page.getByLabel(/Allowed IP addresses/).fill('10.0.0.0/33');
  await page.getByRole('button', { name: 'Create key' }).click();
  await expect(page.getByText(/prefix length must be 0–32/).first()).toBeVisible();

  await page.getByLabel('Label').fill('Office only'); // the form is reset after a refused submission
  await page.getByLabel(/Allowed IP addresses/).fill('203.0.113.0/24');
  await page.getByLabel('Expires').selectOption({ label: 'In 7 days' });
  await page.getByRole('button', { name: 'Create key' }).click();
  const dialog = page.getByRole('dialog', { name: 'API key created: Office only' });
  const secret = await dialog.getByLabel('Secret').inputValue();
  await dialog.getByRole('button', { name: 'I have saved the secret' }).click();
  const row = keyRow(page, 'Office only');
  await expect(row).toContainText('Only from 203.0.113.0/24');
  await expect(row).toContainText(/expires in (7|6) days/);
  const refused = await api(request, 'GET', '/v1/me', secret);
  expect(refused.status).toBe(403);
  expect(refused.json.code).toBe('ip_not_allowed');
});
