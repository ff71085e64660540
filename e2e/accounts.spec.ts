import { expect, test, type Page } from '@playwright/test';
import { expectNoSeriousAxeViolations } from './axe';
import { alerts, PASSWORD, signIn, signUp, switchPlan, uniqueEmail } from './helpers';

/** Fails the test on any Content-Security-Policy violation the browser reports. */
function watchCsp(page: Page): string[] {
  const violations: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy|Content-Security-Policy/i.test(message.text())) violations.push(message.text());
  });
  return violations;
}

test('the portal works under its Content-Security-Policy: every page renders and its scripts run', async ({ page }) => {
  const violations = watchCsp(page);
  await signUp(page, uniqueEmail('csp'));
  for (const [link, heading] of [
    ['API keys', 'API keys'],
    ['Usage', 'Usage'],
    ['Invoices', 'Invoices'],
    ['Wallets', 'Wallets'],
    ['Billing', 'Billing'],
    ['Account', 'Account'],
    ['Overview', 'Overview'],
  ] as const) {
    // Client-side navigation needs Next's scripts, which run only when the nonce matches.
    await page.getByRole('navigation', { name: 'Portal' }).getByRole('link', { name: link, exact: true }).click();
    await expect(page.getByRole('heading', { name: heading, level: 1 })).toBeVisible();
  }
  expect(violations).toEqual([]);
});

test('billing: only self-serve plans are offered; a forged form naming Business is refused and changes nothing', async ({
  page,
}) => {
  await signUp(page, uniqueEmail('billing'));
  await switchPlan(page, 'Developer');
  const planForm = page.locator('form').filter({ has: page.getByRole('button', { name: 'Switch plan' }) });
  await expect(planForm.getByRole('radio')).toHaveCount(2);
  await expect(page.getByText('Plans set by the operator')).toBeVisible();
  await expect(page.getByText(/To move to one, ask the operator of this service/)).toBeVisible();
  await page.screenshot({ path: 'e2e/screenshots/billing-1280.png', fullPage: true });

  // Forge the form, as a hand-made request would: a `plan` field naming Business (the last value wins).
  await planForm.getByRole('radio', { name: /^Trial/ }).check();
  await planForm.evaluate((form) => {
    const forged = document.createElement('input');
    forged.type = 'hidden';
    forged.name = 'plan';
    forged.value = 'Business';
    form.append(forged);
  });
  await planForm.getByRole('button', { name: 'Switch plan' }).click();
  // The visible choice is Trial (no API access), so the portal asks first; confirming sends the forged form.
  await page.getByRole('dialog').getByRole('button', { name: 'Switch to Trial' }).click();
  await expect(alerts(page)).toContainText('The Business plan is set by the operator');
  await page.reload();
  await expect(page.getByText('Current plan: Developer')).toBeVisible();
});

test('sign-up refuses a common password with a clear message', async ({ page }) => {
  await page.goto('/signup');
  await page.getByLabel('Email').fill(uniqueEmail('weak'));
  await page.getByLabel('Password').fill('password1');
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(alerts(page).first()).toContainText('This password is too easy to guess');
  await expect(page).toHaveURL(/\/signup$/);
});

test('account: a password change needs the current password and ends the other sessions', async ({ browser, page }) => {
  const email = uniqueEmail('pwchange');
  await signUp(page, email);
  const otherContext = await browser.newContext();
  const other = await otherContext.newPage();
  await signIn(other, email);
  await expect(other.getByRole('heading', { name: 'Overview', level: 1 })).toBeVisible();

  await page.goto('/account');
  await page.screenshot({ path: 'e2e/screenshots/account-1280.png', fullPage: true });
  await expectNoSeriousAxeViolations(page, 'account');
  const form = page.getByRole('form', { name: 'Change password' });
  await form.getByLabel('Current password').fill('not my password');
  await form.getByLabel('New password').fill('violet kettle drums');
  await form.getByRole('button', { name: 'Change password' }).click();
  await expect(form.getByText('The current password is not correct.').first()).toBeVisible();

  await form.getByLabel('Current password').fill(PASSWORD);
  await form.getByLabel('New password').fill('violet kettle drums');
  await form.getByRole('button', { name: 'Change password' }).click();
  await expect(form.getByText('Password changed. 1 other session was signed out.')).toBeVisible();

  // This session goes on; the other one is signed out on its next request.
  await page.goto('/keys');
  await expect(page.getByRole('heading', { name: 'API keys', level: 1 })).toBeVisible();
  await other.goto('/keys');
  await expect(other).toHaveURL(/\/signin$/);
  await signIn(other, email, 'violet kettle drums');
  await expect(other.getByRole('heading', { name: 'Overview', level: 1 })).toBeVisible();
  await otherContext.close();

  // Keyboard only: the form is reachable and submittable without a mouse.
  await page.goto('/account');
  await page.getByLabel('Current password').focus();
  await page.keyboard.type('violet kettle drums');
  await page.keyboard.press('Tab');
  await page.keyboard.type('violet kettle drums');
  await page.keyboard.press('Enter');
  // The other browser signed in again with the new password: that session is ended now.
  await expect(page.getByText('Password changed. 1 other session was signed out.')).toBeVisible();

  await page.setViewportSize({ width: 375, height: 800 });
  await page.screenshot({ path: 'e2e/screenshots/account-375.png', fullPage: true });
  await page.goto('/billing');
  await page.screenshot({ path: 'e2e/screenshots/billing-375.png', fullPage: true });
  await expectNoSeriousAxeViolations(page, 'billing at 375 px');
});
