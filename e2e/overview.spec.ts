import { expect, test } from '@playwright/test';
import { formatMoney } from '../lib/invoices/money';
import { formatUnits, parseDecimal } from '../lib/rates/decimal';
import { expectNoSeriousAxeViolations } from './axe';
import { api, clickMiddleOf, createKey, signUp, switchPlan, uniqueEmail } from './helpers';

// The Overview's money figures (docs/portal.md, "Overview") equal what the API says after a scripted set of
// invoices: some paid (simulated), some cancelled, some left pending.

const NARROW = { width: 375, height: 812 };
const WIDE = { width: 1280, height: 900 };

interface ApiInvoice {
  id: string;
  status: string;
  currency: string;
  amount_received: string;
  price_amount: string | null;
  price_currency: string | null;
  created_at: string;
  paid_at: string | null;
}

const units = (value: string) => {
  const { units: u, scale } = parseDecimal(value);
  return u * 10n ** BigInt(18 - scale);
};
const sum = (values: string[]) =>
  formatUnits(
    values.reduce((total, value) => total + units(value), 0n),
    18,
  );

test('Overview: volume per currency, fiat volume, counts by status, chart, latest invoices equal the API', async ({
  page,
}) => {
  test.setTimeout(180_000);
  await page.setViewportSize(WIDE);
  await signUp(page, uniqueEmail('overview'), 'Overview shop');
  // Before anything: nothing paid, the Get started list unticked but the plan step.
  await expect(page.getByTestId('volume-none')).toBeVisible();
  await expect(page.getByTestId('get-started-progress')).toHaveText('0 of 5 done');
  await switchPlan(page, 'Developer');
  const key = await createKey(page, { label: 'Overview key', scopes: ['invoices:read', 'invoices:write'] });

  const script: Array<{ body: Record<string, unknown>; then: 'pay' | 'cancel' | 'none' }> = [
    { body: { amount: '12.50', currency: 'USDT', network: 'tron' }, then: 'pay' },
    { body: { amount: '1000.25', currency: 'USDT', network: 'ethereum' }, then: 'pay' },
    { body: { amount: '7', currency: 'USDT', network: 'polygon' }, then: 'cancel' },
    { body: { amount: '0.015', currency: 'ETH', network: 'ethereum' }, then: 'pay' },
    { body: { amount: '0.5', currency: 'ETH', network: 'base' }, then: 'none' },
    { body: { price_amount: '49.00', price_currency: 'USD', currency: 'USDC', network: 'base' }, then: 'pay' },
    { body: { price_amount: '20.50', price_currency: 'USD', currency: 'USDC', network: 'polygon' }, then: 'pay' },
    { body: { price_amount: '5', price_currency: 'USD', currency: 'USDC', network: 'ethereum' }, then: 'cancel' },
    { body: { amount: '0.0021', currency: 'BTC', network: 'bitcoin' }, then: 'pay' },
  ];
  const ids: string[] = [];
  for (const step of script) {
    const created = await api(page.request, 'POST', '/v1/invoices', key.secret, step.body);
    expect(created.status, JSON.stringify(created.json)).toBe(201);
    const id = created.json.id as string;
    ids.push(id);
    if (step.then === 'pay')
      expect((await api(page.request, 'POST', `/v1/test/invoices/${id}/simulate-payment`, key.secret, {})).status).toBe(
        200,
      );
    if (step.then === 'cancel')
      expect((await api(page.request, 'POST', `/v1/invoices/${id}/cancel`, key.secret, {})).status).toBe(200);
  }

  // What the API says.
  const listed = await api(page.request, 'GET', '/v1/invoices?limit=100', key.secret);
  const invoices = listed.json.data as ApiInvoice[];
  expect(invoices).toHaveLength(script.length);
  const monthStart = new Date();
  monthStart.setUTCDate(1);
  monthStart.setUTCHours(0, 0, 0, 0);
  const paid = invoices.filter((invoice) => invoice.status === 'paid' && new Date(invoice.paid_at!) >= monthStart);
  expect(paid).toHaveLength(6);

  await page.goto('/?env=test');
  const volume = page.getByTestId('volume');
  for (const currency of new Set(paid.map((invoice) => invoice.currency))) {
    const mine = paid.filter((invoice) => invoice.currency === currency);
    const expected = formatMoney(sum(mine.map((invoice) => invoice.amount_received)), currency);
    await expect(volume.locator(`[data-currency="${currency}"] [data-field="received"]`), currency).toHaveText(
      expected,
    );
  }
  // Spelled out once, so a formatting slip cannot hide behind the shared formatter.
  await expect(volume.locator('[data-currency="USDT"] [data-field="received"]')).toHaveText('1,012.75 USDT');
  await expect(volume.locator('[data-currency="ETH"] [data-field="received"]')).toHaveText('0.015 ETH');
  await expect(volume.locator('[data-currency]')).toHaveCount(4);
  // Priced in USD: the prices of the paid ones, as the API reports them.
  const fiat = paid.filter((invoice) => invoice.price_currency === 'USD');
  expect(sum(fiat.map((invoice) => invoice.price_amount!))).toBe('69.5');
  await expect(page.getByTestId('volume-fiat').locator('[data-currency="USD"] [data-field="amount"]')).toHaveText(
    '$69.50',
  );

  // Counts by status (this month's invoices), as the API reports each status.
  for (const status of ['pending', 'processing', 'paid', 'cancelled', 'expired']) {
    const expected = invoices.filter(
      (invoice) => invoice.status === status && new Date(invoice.created_at) >= monthStart,
    ).length;
    await expect(page.getByTestId('status-counts').locator(`[data-status="${status}"] dd`), status).toHaveText(
      String(expected),
    );
  }
  // The chart: the month's paid invoices per day; the text alternative carries the total.
  await expect(page.getByTestId('payments-chart')).toHaveAttribute(
    'aria-label',
    new RegExp(
      `^Paid invoices per day this month: ${paid.length} in total, most on \\d{4}-\\d{2}-\\d{2} \\(${paid.length}\\)\\.$`,
    ),
  );
  // Latest invoices, newest first, and a row opens its invoice.
  const latest = page.getByTestId('latest-invoices').locator('tbody tr');
  await expect(latest).toHaveCount(5);
  await expect(latest.first()).toContainText(ids.at(-1)!);
  await expect(latest.first()).toContainText('0.0021 BTC');
  await expectNoSeriousAxeViolations(page, 'overview at 1280 px');
  await page.setViewportSize(NARROW);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(NARROW.width);
  await expectNoSeriousAxeViolations(page, 'overview at 375 px');
  await page.setViewportSize(WIDE);
  // Get started: the plan, the key used, an invoice paid are done; webhooks and wallets are not.
  await expect(page.getByTestId('get-started-progress')).toHaveText('3 of 5 done');
  // A real click in the middle of a cell that is not the link: the row's stretched link receives it.
  await clickMiddleOf(page, latest.first().locator('td[data-label="Amount"]'));
  await expect(page).toHaveURL(new RegExp(`/invoices/${ids.at(-1)}$`));

  // Live has none of it: the environments never mix.
  await page.goto('/?env=live');
  await expect(page.getByTestId('volume-none')).toBeVisible();
  await expect(page.getByTestId('status-counts').locator('[data-status="paid"] dd')).toHaveText('0');
});
