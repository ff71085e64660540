import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { startReceiver, type Receiver } from '../tests/support/receiver';
import { expectNoSeriousAxeViolations } from './axe';
import { api, createKey, signUp, switchPlan, uniqueEmail } from './helpers';

/**
 * The delivery log and endpoint health (docs/webhooks.md): a receiver that always fails and one that always
 * answers 200, both on every event of 51 invoices. Failed deliveries waiting for a retry read "retrying", the
 * log pages 50 at a time with the cursor in the URL, and the table fits its card at 1280 and 375 px.
 */
let failing: Receiver;
let working: Receiver;
test.afterEach(async () => {
  await Promise.all([failing?.close(), working?.close()]);
});

async function addEndpoint(page: Page, url: string) {
  await page.goto('/webhooks');
  await page.getByLabel('Endpoint URL').fill(url);
  await page.getByRole('radio', { name: /^Test/ }).check();
  await page.getByRole('button', { name: 'Add endpoint' }).click();
  const dialog = page.getByRole('dialog', { name: `Endpoint added: ${url}` });
  await dialog.getByRole('button', { name: 'I have saved the secret' }).click();
  await expect(dialog).toBeHidden();
}

/** Creates an invoice, waiting out the per-second rate limit if the burst meets it. */
async function createInvoice(request: APIRequestContext, secret: string) {
  await expect(async () => {
    const created = await api(request, 'POST', '/v1/invoices', secret, {
      amount: '10.00',
      currency: 'USDT',
      network: 'tron',
    });
    expect(created.status).toBe(201);
  }).toPass({ timeout: 30_000, intervals: [250, 500, 1000] });
}

/** The table fits its card: no sideways scrolling inside it, and none on the page. */
async function expectTableFits(page: Page, testId: string, what: string) {
  const overflow = await page
    .getByTestId(testId)
    .evaluate((table) => table.scrollWidth - table.parentElement!.clientWidth);
  expect(overflow, `${what}: the table is wider than its card`).toBeLessThanOrEqual(0);
  const pageOverflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(pageOverflow, `${what}: the page scrolls sideways`).toBeLessThanOrEqual(0);
}

test('webhook log: retrying vs delivered, endpoint health, 50 a page with the cursor in the URL, fits 1280 and 375 px', async ({
  page,
  request,
}) => {
  test.setTimeout(180_000);
  failing = await startReceiver(() => ({ status: 503, body: 'down for maintenance' }));
  working = await startReceiver(() => ({ status: 200, body: 'ok' }));
  await signUp(page, uniqueEmail('hooklog'));
  await switchPlan(page, 'Developer');
  const key = await createKey(page, { label: 'Log key' });
  await addEndpoint(page, failing.url);
  await addEndpoint(page, working.url);
  for (let i = 0; i < 51; i++) await createInvoice(request, key.secret);
  await Promise.all([failing.waitFor(51, 60_000), working.waitFor(51, 60_000)]);

  // The list: health per endpoint, once every first attempt is recorded.
  const row = (url: string) => page.getByTestId('endpoints-table').getByRole('row').filter({ hasText: url });
  await expect(async () => {
    await page.goto('/webhooks');
    await expect(row(failing.url).getByTestId('endpoint-health')).toContainText(
      '0 of 51 delivered in the last 24 h (0 %)',
      { timeout: 1000 },
    );
    await expect(row(working.url).getByTestId('endpoint-health')).toContainText(
      '51 of 51 delivered in the last 24 h (100 %)',
      { timeout: 1000 },
    );
  }).toPass({ timeout: 30_000 });
  await expect(row(failing.url)).toContainText('Failing');
  await expect(row(failing.url)).toContainText('51 failed deliveries in a row');
  await expect(row(failing.url)).toContainText('Failed (HTTP 503)');
  await expect(row(working.url)).toContainText('Healthy');
  await expect(row(working.url)).toContainText('Delivered (HTTP 200)');
  await expectTableFits(page, 'endpoints-table', 'endpoints at 1280 px');
  await expectNoSeriousAxeViolations(page, 'the webhooks list with health');

  // The failing endpoint's log: every delivery is retrying (with its next attempt), none says pending.
  await row(failing.url)
    .getByRole('link', { name: /Manage/ })
    .click();
  await expect(page.getByRole('heading', { name: 'Webhook endpoint', level: 1 })).toBeVisible();
  const rows = page.getByTestId('deliveries-table').locator('tbody tr');
  await expect(rows).toHaveCount(50);
  await expect(page.getByTestId('deliveries-table').locator('tr[data-status="retrying"]')).toHaveCount(50);
  await expect(rows.first()).toContainText(/Attempt \d+ of 10 failed; next /);
  await expect(rows.first()).toContainText('HTTP 503');
  await expect(page.getByTestId('endpoint-health')).toContainText('failed deliveries in a row');
  await expectTableFits(page, 'deliveries-table', 'deliveries at 1280 px');
  await expectNoSeriousAxeViolations(page, 'the delivery log, retrying');
  const firstPageIds = await rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-delivery-id')));

  // Keyboard only: Tab to "Older →", Enter; the cursor is in the URL; then back with "← Newer".
  const pages = page.getByRole('navigation', { name: 'Delivery log pages' });
  await expect(pages.getByText('← Newer')).toHaveAttribute('aria-disabled', 'true');
  const older = pages.getByRole('link', { name: 'Older →' });
  await page.getByRole('link', { name: 'Refresh' }).focus();
  for (let i = 0; i < 400 && !(await older.evaluate((el) => el === document.activeElement)); i++)
    await page.keyboard.press('Tab');
  await expect(older).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`\\?after=${firstPageIds.at(-1)}$`));
  await expect(rows).toHaveCount(1);
  expect(firstPageIds).not.toContain(await rows.first().getAttribute('data-delivery-id'));
  await expect(pages.getByText('Older →')).toHaveAttribute('aria-disabled', 'true');
  const newer = pages.getByRole('link', { name: '← Newer' });
  await newer.focus();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\?before=whd_[0-9a-f]{32}$/);
  await expect(rows).toHaveCount(50);
  expect(await rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-delivery-id')))).toEqual(firstPageIds);

  // 375 px: each cell keeps its label (stacked rows), nothing scrolls sideways.
  await page.setViewportSize({ width: 375, height: 812 });
  const labels = await rows
    .first()
    .locator('td[data-label]')
    .evaluateAll((tds) => tds.map((td) => getComputedStyle(td, '::before').content));
  expect(labels.slice(0, 3)).toEqual(['"Event"', '"Status"', '"Last attempt"']);
  await expectTableFits(page, 'deliveries-table', 'deliveries at 375 px');
  await page.goto('/webhooks');
  await expectTableFits(page, 'endpoints-table', 'endpoints at 375 px');
  await page.setViewportSize({ width: 1280, height: 900 });

  // The working endpoint's log: delivered.
  await row(working.url)
    .getByRole('link', { name: /Manage/ })
    .click();
  await expect(page.getByTestId('deliveries-table').locator('tr[data-status="delivered"]')).toHaveCount(50);
  await expect(rows.first()).toContainText('After 1 attempt');
});
