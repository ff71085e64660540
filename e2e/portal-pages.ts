import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { api, createKey, signUp, switchPlan, TEST_INVOICE, uniqueEmail } from './helpers';

/**
 * A workspace with something on every portal page (a key, a request in the log, a test invoice, a webhook
 * endpoint), and the list of those pages: the phone-width checks and the screenshots walk the same list.
 */
export interface PortalFixture {
  requestId: string;
  invoiceId: string;
  pages: Array<[path: string, name: string]>;
}

export async function portalWithData(
  page: Page,
  request: APIRequestContext,
  receiverUrl: string,
): Promise<PortalFixture> {
  await signUp(page, uniqueEmail('pages'), 'Phone walk');
  await switchPlan(page, 'Developer');
  const key = await createKey(page, { label: 'Checkout server' });
  const response = await request.fetch('/v1/invoices', {
    method: 'POST',
    headers: { 'X-API-Key': key.secret, 'Content-Type': 'application/json' },
    data: JSON.stringify({ ...TEST_INVOICE, order_id: 'order-with-a-fairly-long-reference-0001' }),
  });
  expect(response.status()).toBe(201);
  const requestId = response.headers()['request-id'] ?? '';
  expect(requestId).toMatch(/^req_/);
  const invoiceId = String(((await response.json()) as { id: string }).id);
  expect((await api(request, 'GET', '/v1/me', key.secret)).status).toBe(200);
  await page.goto('/webhooks');
  await page.getByLabel('Endpoint URL').fill(receiverUrl);
  await page.getByRole('button', { name: 'Add endpoint' }).click();
  const added = page.getByRole('dialog', { name: `Endpoint added: ${receiverUrl}` });
  await expect(added).toBeVisible();
  await added.getByRole('button', { name: 'I have saved the secret' }).click();
  const endpointHref = await page.getByTestId('endpoints-table').getByRole('link').first().getAttribute('href');
  return {
    requestId,
    invoiceId,
    pages: [
      ['/', 'overview'],
      ['/keys', 'keys'],
      ['/usage', 'usage'],
      ['/requests', 'requests'],
      [`/requests/${requestId}`, 'request-detail'],
      ['/invoices', 'invoices'],
      [`/invoices/${invoiceId}`, 'invoice-detail'],
      ['/invoices/new', 'invoice-new'],
      ['/invoices/unmatched', 'invoices-unmatched'],
      ['/wallets', 'wallets'],
      ['/webhooks', 'webhooks'],
      ...(endpointHref ? ([[endpointHref, 'webhook-detail']] as Array<[string, string]>) : []),
      ['/billing', 'billing'],
      ['/docs', 'docs'],
      ['/account', 'account'],
      ['/audit', 'audit'],
      ['/members', 'members'],
      ['/no-such-page', 'not-found'],
    ],
  };
}

/** How far the page scrolls sideways (0 when it fits the viewport). */
export function sidewaysOverflow(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
}
