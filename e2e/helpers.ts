import { expect, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { tronAddressOf } from '../lib/wallets/ownership/verifiers';

export const PASSWORD = 'correct horse battery staple';

let counter = 0;
/** A unique email per call, so tests never collide (and never depend on each other's rows). */
export function uniqueEmail(tag: string): string {
  counter += 1;
  return `${tag}-${Date.now().toString(36)}-${counter}@example.test`;
}

export async function signUp(page: Page, email: string, workspaceName?: string): Promise<void> {
  await page.goto('/signup');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  if (workspaceName) await page.getByLabel(/Workspace name/).fill(workspaceName);
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page.getByRole('heading', { name: 'Overview', level: 1 })).toBeVisible();
}

export async function signIn(page: Page, email: string, password = PASSWORD): Promise<void> {
  await page.goto('/signin');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

/**
 * Follows a portal navigation link, on any screen: on a phone the links are behind the "Menu" button
 * (docs/portal.md, "Navigation on phones"), which is opened first.
 */
export async function navigateTo(page: Page, label: string): Promise<void> {
  const menu = page.getByRole('button', { name: 'Menu', exact: true });
  if ((await menu.isVisible()) && (await menu.getAttribute('aria-expanded')) !== 'true') await menu.click();
  await page.getByRole('navigation', { name: 'Portal' }).getByRole('link', { name: label, exact: true }).click();
}

export async function switchPlan(page: Page, plan: 'Trial' | 'Developer' | 'Business' | 'Merchant'): Promise<void> {
  await navigateTo(page, 'Billing');
  await expect(page.getByText('No payment is taken')).toBeVisible();
  await page.getByRole('radio', { name: new RegExp(`^${plan}`) }).check();
  await page.getByRole('button', { name: 'Switch plan' }).click();
  // Leaving API access asks first (the dialog opens on the click itself, before any request).
  const done = page.getByText(`Your workspace is now on the ${plan} plan.`);
  const confirm = page.getByRole('dialog').getByRole('button', { name: `Switch to ${plan}` });
  await expect(done.or(confirm)).toBeVisible();
  if (await confirm.isVisible()) await confirm.click();
  await expect(done).toBeVisible();
}

/**
 * The step-up dialog ("Confirm it is you"): the password again (and a code when two-factor sign-in is on).
 * Wallet changes and live keys open it when this session has not confirmed within the last 5 minutes.
 */
export async function confirmIdentity(page: Page, options: { password?: string; code?: string } = {}): Promise<void> {
  const dialog = page.getByRole('dialog', { name: 'Confirm it is you' });
  await expect(dialog).toBeVisible();
  await dialog.getByLabel('Password').fill(options.password ?? PASSWORD);
  if (options.code !== undefined) await dialog.getByLabel('Authentication code').fill(options.code);
  await dialog.getByRole('button', { name: 'Confirm' }).click();
  await expect(dialog).toBeHidden();
}

export interface CreatedKey {
  secret: string;
  label: string;
}

/** Creates a key in the portal and returns the secret read from the one-time dialog (then dismissed). */
export async function createKey(
  page: Page,
  options: {
    label: string;
    environment?: 'test' | 'live';
    scopes?: Array<'invoices:read' | 'invoices:write'>;
    screenshot?: string;
  },
): Promise<CreatedKey> {
  await page.goto('/keys');
  await page.getByLabel('Label').fill(options.label);
  await page.getByRole('radio', { name: options.environment === 'live' ? /^Live/ : /^Test/ }).check();
  for (const scope of options.scopes ?? []) await page.getByRole('checkbox', { name: new RegExp(scope) }).check();
  await page.getByRole('button', { name: 'Create key' }).click();
  const dialog = page.getByRole('dialog', { name: `API key created: ${options.label}` });
  // A live key needs a step-up unless this session confirmed its password within the last 5 minutes.
  const stepUp = page.getByRole('dialog', { name: 'Confirm it is you' });
  await expect(dialog.or(stepUp)).toBeVisible();
  if (await stepUp.isVisible()) await confirmIdentity(page);
  await expect(dialog).toBeVisible();
  await expect(dialog.getByText('This is the only time the full secret is shown')).toBeVisible();
  const secret = await dialog.getByLabel('Secret').inputValue();
  expect(secret).toMatch(new RegExp(`^${options.environment ?? 'test'}_[0-9A-Za-z]{36}$`));
  if (options.screenshot) await page.screenshot({ path: options.screenshot, fullPage: true });
  await dialog.getByRole('button', { name: 'I have saved the secret' }).click();
  await expect(dialog).toBeHidden();
  return { secret, label: options.label };
}

export function keyRow(page: Page, label: string) {
  return page.getByTestId('keys-table').getByRole('row').filter({ hasText: label });
}

export async function api(
  request: APIRequestContext,
  method: 'GET' | 'POST',
  path: string,
  secret: string,
  body?: unknown,
): Promise<{ status: number; json: Record<string, unknown> }> {
  const response = await request.fetch(path, {
    method,
    headers: { 'X-API-Key': secret, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
    data: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status(), json: (await response.json()) as Record<string, unknown> };
}

export const TEST_INVOICE = { amount: '10.00', currency: 'USDT', network: 'tron' } as const;

/**
 * The page's own alerts with something in them (Next's route announcer also has role="alert", and the portal's
 * status region keeps an empty alert container so that screen readers announce what is put in it).
 */
export function alerts(scope: Page) {
  return scope.locator('[role="alert"]:not(#__next-route-announcer__):not(:empty)');
}

/** A fresh EVM address (checksummed): an address is the wallet of one workspace per network, so tests never share one. */
export function freshEvmAddress(): string {
  return privateKeyToAccount(generatePrivateKey()).address;
}

/** A fresh Tron address (base58), for the same reason. */
export function freshTronAddress(): string {
  return tronAddressOf(freshEvmAddress());
}

/**
 * A mouse click at the middle of an element, wherever the event lands (locator.click() refuses when another
 * element, such as a table row's stretched link, receives it — which is the point of a clickable row).
 */
export async function clickMiddleOf(page: Page, target: Locator): Promise<void> {
  await target.scrollIntoViewIfNeeded();
  const box = await target.boundingBox();
  if (!box) throw new Error('the element has no box: it is not visible');
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
}
