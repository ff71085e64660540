import { expect, test } from '@playwright/test';
import { api, createKey, signUp, switchPlan, uniqueEmail } from './helpers';

// Screenshots of the money pages (Overview, Invoices, an invoice) at 1280 and 375 px, with a few invoices in
// them: SCREENSHOT_TAG names the set ("before" on main, "after" on the branch). Looked at by a person.

const TAG = process.env.SCREENSHOT_TAG ?? 'after';

test('money pages: screenshots at 1280 and 375 px', async ({ page, request }) => {
  test.setTimeout(180_000);
  await page.setViewportSize({ width: 1280, height: 900 });
  await signUp(page, uniqueEmail('shots'), 'Screenshot shop');
  await switchPlan(page, 'Developer');
  const key = await createKey(page, { label: 'Shots key', scopes: ['invoices:read', 'invoices:write'] });
  const ids: string[] = [];
  for (const [i, body] of [
    { amount: '12.50', currency: 'USDT', network: 'tron', description: 'Annual plan', order_id: 'order-1001' },
    { amount: '0.015', currency: 'ETH', network: 'ethereum', description: 'Stickers' },
    { price_amount: '49.00', price_currency: 'USD', currency: 'USDC', network: 'base', order_id: 'order-1003' },
    { amount: '99.99', currency: 'USDT', network: 'ethereum' },
    { amount: '0.0021', currency: 'BTC', network: 'bitcoin', description: 'Mug' },
  ].entries()) {
    const created = await api(request, 'POST', '/v1/invoices', key.secret, body);
    expect(created.status, JSON.stringify(created.json)).toBe(201);
    ids.push(created.json.id as string);
    if (i === 0 || i === 2 || i === 4) {
      const paid = await api(request, 'POST', `/v1/test/invoices/${ids[i]}/simulate-payment`, key.secret, {});
      expect(paid.status, JSON.stringify(paid.json)).toBe(200);
    }
  }
  await api(request, 'POST', `/v1/invoices/${ids[3]}/cancel`, key.secret, {});
  for (const [path, name] of [
    ['/', 'overview'],
    ['/invoices', 'invoices'],
    [`/invoices/${ids[0]}`, 'invoice-detail'],
  ] as const) {
    for (const width of [1280, 375]) {
      await page.setViewportSize({ width, height: width === 375 ? 812 : 900 });
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await page.screenshot({ path: `e2e/screenshots/money-${TAG}-${name}-${width}.png`, fullPage: true });
    }
  }
});
