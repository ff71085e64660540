import { parse } from 'csv-parse/sync';
import { expect, test, type Page } from '@playwright/test';
import { formatUnits, parseDecimal } from '../lib/rates/decimal';
import { expectNoSeriousAxeViolations } from './axe';
import { api, clickMiddleOf, createKey, signUp, switchPlan, uniqueEmail } from './helpers';

// The invoice list's filters, totals and CSV export (docs/portal.md, "Invoices", "CSV export"), and the invoice
// detail's timeline: 1,000 test invoices made through the API, the CSV parsed with csv-parse.

const NARROW = { width: 375, height: 812 };
const WIDE = { width: 1280, height: 900 };

/** Exact decimal sum in units of 10^-18 (no floats). */
function units(value: string): bigint {
  const { units: u, scale } = parseDecimal(value);
  return u * 10n ** BigInt(18 - scale);
}
const sumOf = (values: string[]) =>
  formatUnits(
    values.reduce((total, value) => total + units(value), 0n),
    18,
  );

/** The totals the page shows: per currency, invoiced and received, commas removed. */
async function shownTotals(page: Page): Promise<Record<string, { amount: string; received: string }>> {
  const totals: Record<string, { amount: string; received: string }> = {};
  for (const entry of await page.getByTestId('invoice-totals').locator('[data-currency]').all()) {
    const currency = (await entry.getAttribute('data-currency'))!;
    const amount = (await entry.locator('[data-total="amount"]').innerText()).replaceAll(',', '');
    const received = (await entry.locator('[data-total="amount_received"]').innerText()).replaceAll(',', '');
    totals[currency] = { amount: formatUnits(units(amount), 18), received: formatUnits(units(received), 18) };
  }
  return totals;
}

type CsvRow = Record<string, string>;

async function download(
  page: Page,
): Promise<{ rows: CsvRow[]; response: { status: number; type: string; disposition: string } }> {
  const href = await page.getByTestId('export-csv').getAttribute('href');
  const response = await page.request.get(href!);
  const text = await response.text();
  return {
    rows: parse(text, { columns: true, skip_empty_lines: true }) as CsvRow[],
    response: {
      status: response.status(),
      type: response.headers()['content-type'] ?? '',
      disposition: response.headers()['content-disposition'] ?? '',
    },
  };
}

function csvTotals(rows: CsvRow[]) {
  const totals: Record<string, { amount: string; received: string }> = {};
  for (const currency of new Set(rows.map((row) => row.currency!))) {
    const mine = rows.filter((row) => row.currency === currency);
    totals[currency] = {
      amount: sumOf(mine.map((row) => row.amount!)),
      received: sumOf(mine.map((row) => row.amount_received!)),
    };
  }
  return totals;
}

async function fits375(page: Page, what: string) {
  await page.setViewportSize(NARROW);
  expect(await page.evaluate(() => document.documentElement.scrollWidth), `page width of ${what}`).toBeLessThanOrEqual(
    NARROW.width,
  );
  await expectNoSeriousAxeViolations(page, `${what} at 375 px`);
  await page.setViewportSize(WIDE);
  await expectNoSeriousAxeViolations(page, `${what} at 1280 px`);
}

test('1,000 invoices: the CSV parses and sums to the totals shown, filtered or not; rows open the detail', async ({
  page,
  browser,
}) => {
  // 1,000 creates and ~300 payments over HTTP: minutes on a loaded 2-core machine.
  test.setTimeout(900_000);
  await page.setViewportSize(WIDE);
  await signUp(page, uniqueEmail('export'), 'Export shop');
  await switchPlan(page, 'Developer');
  const key = await createKey(page, { label: 'Export key', scopes: ['invoices:read', 'invoices:write'] });

  const bodies = Array.from({ length: 1000 }, (_, i) =>
    i % 4 === 0
      ? {
          amount: `0.${String(1000 + i).slice(1)}5`,
          currency: 'ETH',
          network: 'ethereum',
          description: `Order ${i}, "quoted", with a comma`,
        }
      : {
          amount: `${(i % 97) + 1}.${String(i % 100).padStart(2, '0')}`,
          currency: 'USDT',
          network: i % 2 ? 'tron' : 'polygon',
          order_id: `ord-${i}`,
          metadata: { line: String(i) },
        },
  );
  const ids: string[] = [];
  const CONCURRENCY = 24;
  for (let start = 0; start < bodies.length; start += CONCURRENCY) {
    const created = await Promise.all(
      bodies
        .slice(start, start + CONCURRENCY)
        .map((body) => api(page.request, 'POST', '/v1/invoices', key.secret, body)),
    );
    for (const result of created) {
      expect(result.status, JSON.stringify(result.json)).toBe(201);
      ids.push(result.json.id as string);
    }
  }
  // Every fourth paid, every ninth of the rest cancelled.
  const toPay = ids.filter((_, i) => i % 4 === 1);
  const toCancel = ids.filter((_, i) => i % 4 !== 1 && i % 9 === 0);
  for (const [list, path] of [
    [toPay, (id: string) => `/v1/test/invoices/${id}/simulate-payment`],
    [toCancel, (id: string) => `/v1/invoices/${id}/cancel`],
  ] as const) {
    for (let start = 0; start < list.length; start += CONCURRENCY) {
      const results = await Promise.all(
        list.slice(start, start + CONCURRENCY).map((id) => api(page.request, 'POST', path(id), key.secret, {})),
      );
      for (const result of results) expect(result.status, JSON.stringify(result.json)).toBe(200);
    }
  }

  // Unfiltered: 1,000 rows, sums equal to the totals shown and to the API's own figures.
  await page.goto('/invoices?env=test');
  await expect(page.getByTestId('invoice-count')).toHaveText('1000');
  const all = await download(page);
  expect(all.response.status).toBe(200);
  expect(all.response.type).toContain('text/csv');
  expect(all.response.disposition).toMatch(/^attachment; filename="invoices-test-[\d-]+\.csv"$/);
  expect(all.rows).toHaveLength(1000);
  expect(new Set(all.rows.map((row) => row.id))).toEqual(new Set(ids));
  expect(csvTotals(all.rows)).toEqual(await shownTotals(page));
  expect(all.rows.filter((row) => row.status === 'paid')).toHaveLength(toPay.length);
  expect(all.rows.filter((row) => row.status === 'cancelled')).toHaveLength(toCancel.length);
  const quoted = all.rows.find((row) => row.id === ids[4])!;
  expect(quoted.description).toBe('Order 4, "quoted", with a comma');
  const sample = await api(page.request, 'GET', `/v1/invoices/${ids[5]}`, key.secret);
  const sampleRow = all.rows.find((row) => row.id === ids[5])!;
  expect(sampleRow).toMatchObject({
    status: sample.json.status,
    currency: sample.json.currency,
    network: sample.json.network,
    paid_at: sample.json.paid_at,
    tx_hash: (sample.json.payment as { tx_hash: string }).tx_hash,
  });
  expect(units(sampleRow.amount_received!)).toBe(units(sample.json.amount_received as string));

  // Filtered through the one bar: paid USDT between 10 and 50; the address keeps the filters, the export too.
  await page.getByLabel('Status').selectOption('paid');
  await page.getByLabel('Currency').selectOption('USDT');
  await page.getByLabel('Amount at least').fill('10');
  await page.getByLabel('Amount at most').fill('50');
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page).toHaveURL(/status=paid/);
  await expect(page).toHaveURL(/min=10/);
  const shownCount = Number(await page.getByTestId('invoice-count').innerText());
  const filtered = await download(page);
  expect(filtered.rows).toHaveLength(shownCount);
  expect(filtered.rows.length).toBeGreaterThan(10);
  for (const row of filtered.rows) {
    expect(row).toMatchObject({ status: 'paid', currency: 'USDT' });
    expect(units(row.amount!) >= units('10') && units(row.amount!) <= units('50')).toBe(true);
  }
  expect(csvTotals(filtered.rows)).toEqual(await shownTotals(page));
  await fits375(page, 'invoice list (filtered)');
  await page.setViewportSize(WIDE);
  await page.screenshot({ path: 'e2e/screenshots/invoices-filtered-1280.png', fullPage: true });

  // A whole row opens its invoice (a click on the status cell), and the keyboard reaches the same link.
  const firstRow = page.getByTestId('invoices-table').locator('tbody tr').first();
  const firstId = await firstRow.getAttribute('data-invoice');
  // A real click in the middle of a cell that is not the link: the row's stretched link receives it.
  await clickMiddleOf(page, firstRow.locator('td[data-label="Status"]'));
  await expect(page).toHaveURL(new RegExp(`/invoices/${firstId}$`));
  await page.goBack();
  await page.getByTestId('invoices-table').getByRole('link', { name: firstId! }).focus();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`/invoices/${firstId}$`));

  // The export needs a session: a fresh browser gets the sign-in page, never a CSV.
  const stranger = await browser.newContext();
  const anonymous = await stranger.request.get('/invoices/export?env=test');
  expect(anonymous.headers()['content-type'] ?? '').not.toContain('text/csv');
  expect(anonymous.url()).toContain('/signin');
  await stranger.close();
});

test('invoice detail: currency formatting, timeline, tx hash copy; no simulate once paid', async ({
  page,
  context,
}) => {
  test.setTimeout(120_000);
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.setViewportSize(WIDE);
  await signUp(page, uniqueEmail('detail'), 'Detail shop');
  await switchPlan(page, 'Developer');
  const key = await createKey(page, { label: 'Detail key', scopes: ['invoices:read', 'invoices:write'] });
  const created = await api(page.request, 'POST', '/v1/invoices', key.secret, {
    amount: '12.50',
    currency: 'USDT',
    network: 'tron',
    order_id: 'order-77',
    description: 'Annual plan',
  });
  const id = created.json.id as string;
  await page.goto(`/invoices/${id}`);
  await expect(page.locator('[data-field="Amount"]')).toHaveText('12.50 USDT');
  await expect(page.getByText('Pay it with “Simulate payment” below.')).toBeVisible();
  await expect(page.getByTestId('invoice-timeline').locator('[data-type="invoice.created"]')).toHaveCount(1);

  const paid = await api(page.request, 'POST', `/v1/test/invoices/${id}/simulate-payment`, key.secret, {});
  const txHash = (paid.json.payment as { tx_hash: string }).tx_hash;
  await page.reload();
  await expect(page.locator('[data-field="Status"]')).toHaveText('paid');
  await expect(page.locator('[data-field="Received"]')).toHaveText('12.50 USDT');
  await expect(page.getByText('Simulate payment')).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Simulate payment' })).toHaveCount(0);
  // A simulated payment never reached a chain: no explorer link, but the hash copies.
  await expect(page.locator('[data-field="Payment"]')).toContainText(txHash);
  await expect(page.locator('[data-field="Payment"]').getByTestId('tx-link')).toHaveCount(0);
  await page
    .locator('[data-field="Payment"]')
    .getByRole('button', { name: /^Copy transaction hash/ })
    .click();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(txHash);
  // Events in time order: created, then paid.
  const types = await page
    .getByTestId('invoice-timeline')
    .locator('li[data-type]')
    .evaluateAll((items) => items.map((item) => item.getAttribute('data-type')));
  expect(types).toEqual(['invoice.created', 'invoice.paid']);
  await fits375(page, 'invoice detail (paid test invoice)');
});
