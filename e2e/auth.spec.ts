import { expect, test } from '@playwright/test';
import { alerts, PASSWORD, signIn, signUp, uniqueEmail } from './helpers';

test('flow 5: after sign-out, replaying the saved session cookie redirects to sign in', async ({ browser, page }) => {
  await signUp(page, uniqueEmail('flow5'));
  const saved = await page.context().cookies();
  const sessionCookie = saved.find((c) => c.name.endsWith('next-auth.session-token'));
  expect(sessionCookie, 'a next-auth session cookie was set').toBeTruthy();
  expect(sessionCookie?.httpOnly).toBe(true);

  // The saved cookie works before sign-out…
  const before = await browser.newContext();
  await before.addCookies(saved);
  const beforePage = await before.newPage();
  await beforePage.goto('/keys');
  await expect(beforePage.getByRole('heading', { name: 'API keys', level: 1 })).toBeVisible();
  await before.close();

  await page.getByRole('button', { name: 'Sign out', exact: true }).click();
  await expect(page).toHaveURL(/\/signin$/);
  await expect(page.getByRole('heading', { name: 'Sign in to the developer portal' })).toBeVisible();

  // …and is refused after: the server-side session row is revoked.
  const replay = await browser.newContext();
  await replay.addCookies(saved);
  const replayPage = await replay.newPage();
  for (const path of ['/', '/keys', '/usage', '/invoices', '/billing']) {
    await replayPage.goto(path);
    await expect(replayPage).toHaveURL(/\/signin$/);
  }
  const session = await replayPage.request.get('/api/auth/session');
  expect(await session.json()).not.toHaveProperty('user');
  await replay.close();
});

test('sign in: one generic message for a wrong password or an unknown email; repeated failures are throttled', async ({
  page,
}) => {
  const email = uniqueEmail('throttle');
  await signUp(page, email);
  await page.getByRole('button', { name: 'Sign out', exact: true }).click();
  await expect(page).toHaveURL(/\/signin$/);

  await signIn(page, `nobody-${email}`, PASSWORD);
  await expect(alerts(page)).toHaveText('Invalid email or password');
  await signIn(page, email, 'wrong password 1');
  await expect(alerts(page)).toHaveText('Invalid email or password');

  // Right password works while under the limit.
  await signIn(page, email, PASSWORD);
  await expect(page.getByRole('heading', { name: 'Overview', level: 1 })).toBeVisible();
  await page.getByRole('button', { name: 'Sign out', exact: true }).click();
  await expect(page).toHaveURL(/\/signin$/);

  for (let i = 0; i < 5; i++) {
    await signIn(page, email, `wrong password ${i}`);
    await expect(alerts(page)).toHaveText('Invalid email or password');
  }
  // Now even the right password is refused from this address for a while (another address is not affected).
  await signIn(page, email, PASSWORD);
  await expect(alerts(page)).toHaveText(/Too many failed sign-in attempts/);
  await page.goto('/keys');
  await expect(page).toHaveURL(/\/signin$/);
});

test('the portal works at 375 px: navigation reachable, no horizontal page overflow', async ({ browser }) => {
  const context = await browser.newContext({ viewport: { width: 375, height: 740 } });
  const page = await context.newPage();
  await signUp(page, uniqueEmail('mobile'));
  for (const path of ['/', '/keys', '/usage', '/invoices', '/wallets', '/billing']) {
    await page.goto(path);
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow, `horizontal overflow on ${path}`).toBeLessThanOrEqual(0);
  }
  // On a phone the links are behind the Menu button: reachable from there.
  await page.getByRole('button', { name: 'Menu', exact: true }).click();
  await expect(page.getByRole('navigation', { name: 'Portal' }).getByRole('link', { name: 'Billing' })).toBeVisible();
  await context.close();
});
