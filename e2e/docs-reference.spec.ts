import { expect, test, type Page } from '@playwright/test';
import { expectNoSeriousAxeViolations } from './axe';

/**
 * The API reference and the versioning policy under the app's own strict CSP (nonce, 'strict-dynamic', no
 * 'unsafe-inline' scripts): every script runs, nothing is blocked, and no Markdown is left raw.
 */
async function watchCsp(page: Page): Promise<() => Promise<string[]>> {
  const console: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) console.push(message.text());
  });
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { __cspViolations: string[] }).__cspViolations = seen;
    document.addEventListener('securitypolicyviolation', (event) =>
      seen.push(`${event.violatedDirective} ${event.blockedURI}`),
    );
  });
  return async () => [
    ...console,
    ...(await page.evaluate(() => (window as unknown as { __cspViolations: string[] }).__cspViolations)),
  ];
}

test('API reference: rendered Markdown, examples per operation, no OPTIONS/HEAD, scripts run under the CSP, axe clean', async ({
  browser,
}) => {
  const context = await browser.newContext({ permissions: ['clipboard-read', 'clipboard-write'] });
  const page = await context.newPage();
  const violations = await watchCsp(page);
  const response = await page.goto('/docs');
  expect(response?.status()).toBe(200);
  const csp = response!.headers()['content-security-policy'] ?? '';
  expect(csp).toMatch(/script-src 'self' 'nonce-[^']+' 'strict-dynamic'/);
  expect(csp).not.toMatch(/script-src[^;]*unsafe-(inline|eval)/);
  // Every script tag the server sent carries this response's nonce (a prerendered page's carry none).
  const nonce = /'nonce-([^']+)'/.exec(csp)?.[1];
  const tags = (await response!.text()).match(/<script\b[^>]*>/g) ?? [];
  expect(tags.length).toBeGreaterThan(0);
  expect(tags.filter((tag) => !tag.includes(`nonce="${nonce}"`))).toEqual([]);

  await expect(page.getByRole('heading', { name: 'Crypto invoicing API', level: 1 })).toBeVisible();
  const text = await page.locator('main').innerText();
  expect(text).not.toContain('`');
  expect(text).not.toContain('](');
  // Links in descriptions are links, code spans are code.
  await expect(page.locator('main').getByRole('link', { name: 'versioning policy' })).toHaveAttribute(
    'href',
    /\/docs\/versioning$/,
  );
  await expect(page.locator('main code', { hasText: 'X-API-Key' }).first()).toBeVisible();

  // Contents: the operations, not their OPTIONS/HEAD twins.
  const contents = page.getByRole('navigation', { name: 'Contents' });
  await expect(contents.getByRole('link', { name: 'Create an invoice' })).toBeVisible();
  expect(await page.locator('[data-operation]').count()).toBe(10);
  expect(text).not.toMatch(/Methods of \/v1|HEAD is not supported|\(headers only\)/);
  expect(await page.locator('[data-operation^="options"], [data-operation^="head"]').count()).toBe(0);

  // Create an invoice: curl, SDK and the response, from the document's own examples.
  const create = page.locator('[data-operation="createInvoice"]');
  const curl = create.getByTestId('example-curl');
  await expect(curl).toContainText("curl '");
  await expect(curl).toContainText('/v1/invoices');
  await expect(curl).toContainText('-H "X-API-Key: $CRYPTO_INVOICING_API_KEY"');
  await expect(curl).toContainText('"amount": "49.99"');
  await expect(create.getByTestId('example-sdk')).toContainText("import { Client } from '@crypto-invoicing/sdk';");
  await expect(create.getByTestId('example-sdk')).toContainText('const invoice = await client.invoices.create({');
  await expect(create.getByTestId('example-response')).toContainText('"object": "invoice"');
  // Every operation has a curl example; every one but the document itself an SDK example.
  expect(await page.getByTestId('example-curl').count()).toBe(10);
  expect(await page.getByTestId('example-sdk').count()).toBe(9);

  // The client scripts run (hydrated): the copy button copies. Keyboard only: Tab to it, Enter.
  const copy = create.getByRole('button', { name: /Copy Create an invoice: curl/ });
  await copy.focus();
  await page.keyboard.press('Enter');
  await expect(copy).toContainText('Copied');
  expect(await page.evaluate(() => navigator.clipboard.readText())).toContain("curl '");
  // The code blocks scroll with the keyboard.
  await expect(curl.locator('pre')).toHaveAttribute('tabindex', '0');

  await expectNoSeriousAxeViolations(page, 'the API reference');
  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: 900 });
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow, `horizontal overflow at ${width} px`).toBeLessThanOrEqual(0);
  }
  expect(await violations()).toEqual([]);
  await context.close();
});

test('versioning policy: HTML rendered from docs/versioning.md, under the CSP; errors page too', async ({ page }) => {
  const violations = await watchCsp(page);
  const response = await page.goto('/docs/versioning');
  expect(response?.status()).toBe(200);
  expect(response!.headers()['content-type']).toContain('text/html');
  await expect(page.getByRole('heading', { name: 'API versioning and deprecation policy', level: 1 })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'What may change inside /v1', level: 2 })).toBeVisible();
  const text = await page.locator('main').innerText();
  expect(text).not.toContain('`');
  expect(text).not.toContain('**');
  await expectNoSeriousAxeViolations(page, 'the versioning policy');
  await page.getByRole('link', { name: '← API reference' }).click();
  await expect(page).toHaveURL(/\/docs$/);
  await page.goto('/docs/errors');
  await expect(page.getByRole('heading', { name: 'API errors', level: 1 })).toBeVisible();
  expect(await violations()).toEqual([]);
});
