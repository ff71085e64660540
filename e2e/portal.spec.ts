import { expect, test, type Page } from '@playwright/test';
import { TEST_PAY_ADDRESSES } from '../lib/wallets/address';
import { expectNoSeriousAxeViolations } from './axe';
import {
  api,
  confirmIdentity,
  createKey,
  freshEvmAddress,
  freshTronAddress,
  keyRow,
  PASSWORD,
  signUp,
  switchPlan,
  TEST_INVOICE,
  uniqueEmail,
} from './helpers';

// Issues 14 and 21: the portal at 375 px, dialogs, forms that keep input, invoices for daily work.

const NARROW = { width: 375, height: 812 };
const WIDE = { width: 1280, height: 900 };
// Fresh per test: an address is the wallet of one workspace per network (docs/portal.md, "Wallet ownership").
let VALID_ETH = '';
let VALID_TRON = '';
test.beforeEach(() => {
  VALID_ETH = freshEvmAddress();
  VALID_TRON = freshTronAddress();
});
// Live invoices need a watched network: the e2e server's local chain is ethereum (these tests make no payment).
const LIVE_INVOICE = { amount: '10.00', currency: 'USDT', network: 'ethereum' } as const;

async function noSidewaysScroll(page: Page, what: string) {
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width, `page width of ${what}`).toBeLessThanOrEqual(NARROW.width);
}

/** At 375 px: no sideways scroll, no serious axe violation; screenshots at 375 and 1280. */
async function checkPage(page: Page, name: string) {
  await page.setViewportSize(NARROW);
  await noSidewaysScroll(page, name);
  await expectNoSeriousAxeViolations(page, name);
  await page.screenshot({ path: `e2e/screenshots/${name}-375.png`, fullPage: true });
  await page.setViewportSize(WIDE);
  await page.screenshot({ path: `e2e/screenshots/${name}-1280.png`, fullPage: true });
  await page.setViewportSize(NARROW);
}

/** An open dialog at 375 px: it and the page fit, every button in the viewport; axe; screenshot. */
async function checkDialog(page: Page, name: string) {
  const dialog = page.getByRole('dialog');
  await expect(dialog).toBeVisible();
  await noSidewaysScroll(page, name);
  for (const button of await dialog.getByRole('button').all()) await expect(button).toBeInViewport({ ratio: 1 });
  await expectNoSeriousAxeViolations(page, name);
  await page.screenshot({ path: `e2e/screenshots/${name}-375.png` });
}

test('every page and dialog, signed out and in, fits 375 px and has no serious axe violation', async ({
  browser,
  request,
}) => {
  test.setTimeout(240_000);
  const context = await browser.newContext({ viewport: NARROW });
  const page = await context.newPage();
  for (const [path, name] of [
    ['/signin', 'signin'],
    ['/signup', 'signup'],
    ['/docs', 'docs-signed-out'],
  ] as const) {
    await page.goto(path);
    await checkPage(page, name);
  }

  await signUp(page, uniqueEmail('narrow'), 'A workspace with a rather long name to wrap');
  await checkPage(page, 'overview-trial');
  await switchPlan(page, 'Developer');
  await checkPage(page, 'billing');

  // The one-time secret dialog: the secret field fits, "Copy secret" and the dismiss button are on screen.
  await page.goto('/keys');
  await page.getByLabel('Label').fill('Narrow key');
  await page.getByRole('radio', { name: /^Live/ }).check();
  await page.getByRole('button', { name: 'Create key' }).click();
  // A live key: the step-up dialog first (password again), which must fit too.
  await checkDialog(page, 'step-up-dialog');
  await confirmIdentity(page);
  const secretDialog = page.getByRole('dialog', { name: 'API key created: Narrow key' });
  await expect(secretDialog.getByRole('button', { name: 'Copy secret' })).toBeInViewport({ ratio: 1 });
  await expect(secretDialog.getByRole('button', { name: 'I have saved the secret' })).toBeInViewport({ ratio: 1 });
  await expect(secretDialog.getByLabel('Secret')).toBeInViewport({ ratio: 1 });
  await checkDialog(page, 'secret-dialog-after');
  const liveSecret = await secretDialog.getByLabel('Secret').inputValue();
  await secretDialog.getByRole('button', { name: 'I have saved the secret' }).click();
  const testKey = await createKey(page, { label: 'Narrow test key' });
  await checkPage(page, 'keys');
  await keyRow(page, 'Narrow key').getByRole('button', { name: 'Revoke key Narrow key' }).click();
  await checkDialog(page, 'revoke-dialog');
  await page.keyboard.press('Escape');

  await page.goto('/wallets');
  await page.getByLabel('Tron address').fill(VALID_TRON);
  await page.getByRole('button', { name: 'Save Tron' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Tron wallet saved.' })).toBeVisible();
  await checkPage(page, 'wallets');
  await page.getByRole('button', { name: 'Remove Tron wallet' }).click();
  await checkDialog(page, 'remove-wallet-dialog');
  await page.keyboard.press('Escape');

  // Invoices: a live one (paid to the wallet) and a test one; list, detail, cancel dialog, new-invoice form.
  await page.getByLabel('Ethereum address').fill(VALID_ETH);
  await page.getByRole('button', { name: 'Save Ethereum' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Ethereum wallet saved.' })).toBeVisible();
  const live = await api(request, 'POST', '/v1/invoices', liveSecret, {
    ...LIVE_INVOICE,
    order_id: 'a-very-long-order-reference-that-must-wrap-0123456789',
  });
  expect(live.status).toBe(201);
  expect((await api(request, 'POST', '/v1/invoices', testKey.secret, TEST_INVOICE)).status).toBe(201);
  await page.goto('/invoices?env=live');
  await checkPage(page, 'invoices');
  await page.goto(`/invoices/${String(live.json.id)}`);
  await checkPage(page, 'invoice-detail');
  await page.getByRole('button', { name: 'Cancel invoice' }).click();
  await checkDialog(page, 'cancel-invoice-dialog');
  await page.keyboard.press('Escape');
  await page.goto('/invoices/new');
  await checkPage(page, 'invoice-new');
  await page.goto('/usage');
  await checkPage(page, 'usage');
  await page.goto('/');
  await checkPage(page, 'overview');
  await page.goto('/docs');
  await checkPage(page, 'docs');
  await page.goto('/no-such-page');
  await checkPage(page, 'not-found');

  await page.goto('/billing');
  await page.getByRole('radio', { name: /^Trial/ }).check();
  await page.getByRole('button', { name: 'Switch plan' }).click();
  await checkDialog(page, 'downgrade-dialog');
  await context.close();
});

test('keyboard only: create a key, copy, dismiss, revoke with confirmation', async ({ browser }) => {
  const context = await browser.newContext({ viewport: WIDE, permissions: ['clipboard-read', 'clipboard-write'] });
  const page = await context.newPage();
  await signUp(page, uniqueEmail('keyboard'));
  await page.goto('/keys');
  const focused = () =>
    page.evaluate(
      () => `${document.activeElement?.id ?? ''} ${document.activeElement?.getAttribute('aria-label') ?? ''}`,
    );
  // From the skip link onwards, Tab until the label field (no mouse).
  await page.keyboard.press('Tab');
  for (let i = 0; i < 30 && !(await focused()).startsWith('key-label '); i++) await page.keyboard.press('Tab');
  await page.keyboard.type('Keyboard key');
  await page.keyboard.press('Tab'); // environment radio group (Test)
  await page.keyboard.press('ArrowRight'); // Live
  await page.keyboard.press('Tab'); // first scope
  await page.keyboard.press('Space');
  // On to the Create key button (past the other scope, the expiry and the IP allowlist fields).
  for (
    let i = 0;
    i < 6 && !(await page.evaluate(() => document.activeElement?.textContent?.trim() === 'Create key'));
    i++
  )
    await page.keyboard.press('Tab');
  await page.keyboard.press('Enter');

  // A live key: the step-up dialog opens with the password field focused; type it and press Enter.
  const stepUp = page.getByRole('dialog', { name: 'Confirm it is you' });
  await expect(stepUp.getByLabel('Password')).toBeFocused();
  await page.keyboard.type(PASSWORD);
  await page.keyboard.press('Enter');
  await expect(stepUp).toBeHidden();

  const dialog = page.getByRole('dialog', { name: 'API key created: Keyboard key' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByLabel('Secret')).toBeFocused();
  const secret = await dialog.getByLabel('Secret').inputValue();
  expect(secret).toMatch(/^live_/);
  await page.keyboard.press('Escape'); // the secret dialog ignores Escape
  await expect(dialog).toBeVisible();
  await page.keyboard.press('Tab');
  await expect(dialog.getByRole('button', { name: 'Copy secret' })).toBeFocused();
  await page.keyboard.press('Enter');
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
  await page.keyboard.press('Tab');
  await expect(dialog.getByRole('button', { name: 'I have saved the secret' })).toBeFocused();
  await page.keyboard.press('Tab'); // wraps inside the dialog
  await expect(dialog.getByLabel('Secret')).toBeFocused();
  await page.keyboard.press('Shift+Tab');
  await page.keyboard.press('Enter');
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('button', { name: 'Create key' })).toBeFocused();
  await expect(keyRow(page, 'Keyboard key')).toContainText('invoices:read');
  await expect(keyRow(page, 'Keyboard key')).toContainText('Live');

  // Revoke: Escape closes the confirmation and focus returns to the button that opened it.
  for (let i = 0; i < 40 && !(await focused()).includes('Revoke key Keyboard key'); i++)
    await page.keyboard.press('Tab');
  await page.keyboard.press('Enter');
  const confirm = page.getByRole('dialog', { name: 'Revoke “Keyboard key”?' });
  await expect(confirm).toBeVisible();
  await expect(confirm.getByRole('button', { name: 'Keep it' })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(confirm).toBeHidden();
  await expect(page.getByRole('button', { name: 'Revoke key Keyboard key' })).toBeFocused();
  await page.keyboard.press('Enter');
  await page.keyboard.press('Tab');
  await expect(confirm.getByRole('button', { name: 'Revoke key' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('status').filter({ hasText: 'Key “Keyboard key” revoked' })).toBeVisible();
  await expect(keyRow(page, 'Keyboard key')).toContainText('revoked');
  await context.close();
});

test('invoices: cancel a live invoice (API says cancelled), search by order_id, previous page returns the first', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  await signUp(page, uniqueEmail('invoices'));
  await switchPlan(page, 'Developer');
  const live = await createKey(page, { label: 'Live writer', environment: 'live' });
  const test1 = await createKey(page, { label: 'Test writer' });
  await page.goto('/wallets');
  await page.getByLabel('Ethereum address').fill(VALID_ETH);
  await page.getByRole('button', { name: 'Save Ethereum' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Ethereum wallet saved.' })).toBeVisible();

  const created = await api(request, 'POST', '/v1/invoices', live.secret, { ...LIVE_INVOICE, order_id: 'order-4242' });
  expect(created.status).toBe(201);
  const id = String(created.json.id);
  await page.goto(`/invoices/${id}`);
  await page.getByRole('button', { name: 'Cancel invoice' }).click();
  await page
    .getByRole('dialog', { name: 'Cancel this invoice?' })
    .getByRole('button', { name: 'Cancel invoice' })
    .click();
  await expect(page.getByRole('status').filter({ hasText: `Invoice ${id} is cancelled.` })).toBeVisible();
  await expect(page.locator('[data-field="Status"]')).toHaveText('cancelled');
  expect((await api(request, 'GET', `/v1/invoices/${id}`, live.secret)).json.status).toBe('cancelled');

  await page.goto('/invoices?env=live');
  await page.getByLabel('Invoice id or order id').fill('order-4242');
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page.getByTestId('invoices-table').getByRole('link', { name: id })).toBeVisible();
  await page.getByLabel('Invoice id or order id').fill(id);
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page.getByTestId('invoices-table').getByRole('link', { name: id })).toBeVisible();

  // 21 test invoices: two pages of 20; Next then Previous shows the first page again.
  for (let i = 0; i < 21; i++)
    expect((await api(request, 'POST', '/v1/invoices', test1.secret, TEST_INVOICE)).status).toBe(201);
  await page.goto('/invoices?env=test');
  const firstPage = await page.getByTestId('invoices-table').getByRole('link').allTextContents();
  expect(firstPage).toHaveLength(20);
  await page.getByRole('link', { name: 'Next page' }).click();
  await expect(page.getByTestId('invoices-table').getByRole('link')).toHaveCount(1);
  await page.getByRole('link', { name: 'Previous page' }).click();
  await expect(page.getByTestId('invoices-table').getByRole('link')).toHaveText(firstPage);
  await expect(page.getByRole('link', { name: 'Previous page' })).toHaveCount(0);
});

test('a create-key error keeps Live and the chosen scopes; the corrected submit creates exactly that key', async ({
  page,
}) => {
  await signUp(page, uniqueEmail('keep-key'));
  await page.goto('/keys');
  await page.getByLabel('Label').fill('   ');
  await page.getByRole('radio', { name: /^Live/ }).check();
  await page.getByRole('checkbox', { name: /invoices:read/ }).check();
  await page.getByRole('button', { name: 'Create key' }).click();
  await expect(page.locator('#key-label-error')).toHaveText('Label is required');
  await expect(page.getByRole('radio', { name: /^Live/ })).toBeChecked();
  await expect(page.getByRole('checkbox', { name: /invoices:read/ })).toBeChecked();
  await expect(page.getByRole('checkbox', { name: /invoices:write/ })).not.toBeChecked();
  await page.getByLabel('Label').fill('Kept choices');
  await page.getByRole('button', { name: 'Create key' }).click();
  await confirmIdentity(page); // a live key: the password again (step-up); the form keeps every choice meanwhile
  const dialog = page.getByRole('dialog', { name: 'API key created: Kept choices' });
  expect(await dialog.getByLabel('Secret').inputValue()).toMatch(/^live_/);
  await dialog.getByRole('button', { name: 'I have saved the secret' }).click();
  const row = keyRow(page, 'Kept choices');
  await expect(row).toContainText('Live');
  await expect(row).toContainText('invoices:read');
  await expect(row).not.toContainText('invoices:write');
});

test('the wallet form keeps a mistyped address; removing a wallet asks first', async ({ page }) => {
  await signUp(page, uniqueEmail('keep-wallet'));
  await page.goto('/wallets');
  const typo = `${VALID_ETH.slice(0, -1)}Z`;
  await page.getByLabel('Ethereum address').fill(typo);
  await page.getByRole('button', { name: 'Save Ethereum' }).click();
  await expect(page.locator('#wallet-ethereum-error')).toBeVisible();
  await expect(page.getByLabel('Ethereum address')).toHaveValue(typo);
  await page.getByLabel('Ethereum address').fill(VALID_ETH);
  await page.getByRole('button', { name: 'Save Ethereum' }).click();
  await confirmIdentity(page);
  await expect(page.getByRole('status').filter({ hasText: 'Ethereum wallet saved.' })).toBeVisible();
  await page.getByRole('button', { name: 'Remove Ethereum wallet' }).click();
  const dialog = page.getByRole('dialog', { name: 'Remove the Ethereum wallet?' });
  await dialog.getByRole('button', { name: 'Keep it' }).click();
  await expect(page.getByLabel('Ethereum address')).toHaveValue(VALID_ETH);
  await page.getByRole('button', { name: 'Remove Ethereum wallet' }).click();
  await dialog.getByRole('button', { name: 'Remove wallet' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Ethereum wallet removed.' })).toBeVisible();
  await expect(page.getByLabel('Ethereum address')).toHaveValue('');
});

test('a plan without API access (Trial, like Merchant) creates invoices in the portal; a test invoice with a wallet set shows the test address and the notice', async ({
  page,
}) => {
  // Merchant is set by the operator (SELF_SERVE_PLANS); Trial has the same "no API access" rule for this flow.
  await signUp(page, uniqueEmail('merchant'));
  await page.goto('/wallets');
  await page.getByLabel('Tron address').fill(VALID_TRON);
  await page.getByRole('button', { name: 'Save Tron' }).click();
  await confirmIdentity(page);
  await expect(page.getByRole('status').filter({ hasText: 'Tron wallet saved.' })).toBeVisible();
  await page.getByLabel('Ethereum address').fill(VALID_ETH);
  await page.getByRole('button', { name: 'Save Ethereum' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Ethereum wallet saved.' })).toBeVisible();

  await page.getByRole('navigation', { name: 'Portal' }).getByRole('link', { name: 'Invoices' }).click();
  await page.getByRole('link', { name: 'New invoice' }).click();
  // The list has Network and Amount filters of its own: wait for the form's page.
  await expect(page).toHaveURL(/\/invoices\/new$/);
  // An error keeps every field.
  await page.getByLabel('Network').selectOption('tron');
  await page.getByLabel('Amount').fill('1.1234567');
  await page.getByLabel('Order id (optional)').fill('merchant-7');
  await page.getByRole('button', { name: 'Create invoice' }).click();
  await expect(page.locator('#amount-error')).toHaveText('USDT amounts have at most 6 decimals');
  await expect(page.getByLabel('Order id (optional)')).toHaveValue('merchant-7');
  await page.getByLabel('Amount').fill('25.50');
  await page.getByRole('button', { name: 'Create invoice' }).click();
  await expect(page.getByText('Invoice created.')).toBeVisible();
  await expect(page.locator('[data-field="Amount"]')).toHaveText('25.50 USDT');
  await expect(page.locator('[data-field="Order id"]')).toContainText('merchant-7');
  // A test invoice never shows the workspace's wallet, even with one set.
  await expect(page.locator('[data-field="Pay address"]')).toContainText(TEST_PAY_ADDRESSES.tron);
  await expect(page.locator('[data-field="Pay address"]')).not.toContainText(VALID_TRON);
  await expect(page.getByText('Test invoice — do not send funds')).toBeVisible();

  // A live one (on a watched network) is paid to the wallet.
  await page.goto('/invoices/new');
  await page.getByRole('radio', { name: /^Live/ }).check();
  await page.getByLabel('Network').selectOption('ethereum');
  await page.getByLabel('Amount').fill('5');
  await page.getByRole('button', { name: 'Create invoice' }).click();
  await expect(page.locator('[data-field="Pay address"]')).toContainText(VALID_ETH);
  await expect(page.getByText('Test invoice — do not send funds')).toHaveCount(0);
});

test('the 404 page keeps the portal navigation; the Docs link opens the API reference', async ({ page }) => {
  await signUp(page, uniqueEmail('notfound'));
  const response = await page.goto('/no-such-page');
  expect(response?.status()).toBe(404);
  await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
  await page.getByRole('navigation', { name: 'Portal' }).getByRole('link', { name: 'Docs' }).click();
  await expect(page.getByRole('heading', { name: 'Crypto invoicing API', level: 1 })).toBeVisible();
  await expect(page.locator('#createInvoice')).toContainText('/v1/invoices');
});

test('after a conflict the page refreshes: a stale "active" key revoked elsewhere shows the error and then "revoked"', async ({
  browser,
}) => {
  const context = await browser.newContext({ viewport: WIDE });
  const page = await context.newPage();
  await signUp(page, uniqueEmail('stale'));
  const key = await createKey(page, { label: 'Stale key' });
  const other = await context.newPage();
  await other.goto('/keys');
  await expect(keyRow(other, key.label)).toContainText('active');
  await keyRow(page, key.label)
    .getByRole('button', { name: `Revoke key ${key.label}` })
    .click();
  await page.getByRole('dialog').getByRole('button', { name: 'Revoke key' }).click();
  await expect(keyRow(page, key.label)).toContainText('revoked');

  // The second tab still shows it active; its revoke fails with a conflict, which it says, and the row refreshes.
  await keyRow(other, key.label)
    .getByRole('button', { name: `Revoke key ${key.label}` })
    .click();
  await other.getByRole('dialog').getByRole('button', { name: 'Revoke key' }).click();
  await expect(other.getByRole('alert').filter({ hasText: 'is already revoked' })).toBeVisible();
  await expect(keyRow(other, key.label)).toContainText('revoked');
  await context.close();
});
