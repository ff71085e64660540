import { expect, test } from '@playwright/test';
import { api, createKey, signUp, switchPlan, uniqueEmail } from './helpers';

test('flow 3: after N API calls the usage page shows N (total, per key, chart)', async ({ page, request }) => {
  await signUp(page, uniqueEmail('flow3'));
  await switchPlan(page, 'Developer');
  const busy = await createKey(page, { label: 'Busy key' });
  const idle = await createKey(page, { label: 'Idle key' });

  await page.goto('/usage');
  await expect(page.getByTestId('monthly-requests')).toHaveText('0');

  const N = 7;
  for (let i = 0; i < N; i++) {
    const response = await api(request, 'GET', i % 2 === 0 ? '/v1/me' : '/v1/invoices', busy.secret);
    expect(response.status).toBe(200);
  }
  // Requests refused at authentication are not counted.
  expect(
    (await api(request, 'GET', '/v1/me', `${idle.secret.slice(0, -1)}${idle.secret.endsWith('x') ? 'y' : 'x'}`)).status,
  ).toBe(401);

  await page.reload();
  await expect(page.getByTestId('monthly-requests')).toHaveText(String(N));
  const table = page.getByTestId('usage-by-key');
  await expect(table.getByRole('row').filter({ hasText: 'Busy key' })).toContainText(String(N));
  await expect(table.getByRole('row').filter({ hasText: 'Idle key' }).getByRole('cell').last()).toHaveText('0');
  const chart = page.getByRole('img', { name: new RegExp(`${N} in total`) });
  await expect(chart).toBeVisible();
  expect(await chart.locator('rect').count()).toBeGreaterThanOrEqual(28);
  await page.screenshot({ path: 'e2e/screenshots/usage.png', fullPage: true });

  // The overview's bar agrees.
  await page.goto('/');
  await expect(page.getByTestId('usage-count')).toHaveText(`${N} / 10,000`);
});
