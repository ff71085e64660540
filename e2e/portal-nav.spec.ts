import { expect, test, type Page } from '@playwright/test';
import { startReceiver, type Receiver } from '../tests/support/receiver';
import { expectNoSeriousAxeViolations } from './axe';
import { portalWithData, sidewaysOverflow } from './portal-pages';
import { signUp, uniqueEmail } from './helpers';

// The portal on a phone: one "Menu" button instead of four rows of tabs; every page fits 375 px with it closed;
// the menu works from the keyboard; dates in one format (docs/portal.md, "Navigation on phones", "Dates and times").

const NARROW = { width: 375, height: 812 };
const WIDE = { width: 1280, height: 900 };
const SHOWN = ['keys', 'usage', 'audit', 'request-detail'];
// "Nov 25, 2026, 7:13 PM" (docs/portal.md): in the viewer's zone, or "… UTC" when the server does not know it.
const DATE = /^[A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d{2} [AP]M( UTC)?$/;

let receiver: Receiver;
test.beforeAll(async () => {
  receiver = await startReceiver();
});
test.afterAll(async () => {
  await receiver.close();
});

/** The text of server-rendered HTML (React's <!-- --> markers and tags removed). */
function textOf(html: string): string {
  return html.replace(/<!-- -->/g, '').replace(/<[^>]+>/g, '');
}

function menuButton(page: Page) {
  return page.getByRole('button', { name: 'Menu', exact: true });
}

function portalNav(page: Page) {
  return page.getByRole('navigation', { name: 'Portal' });
}

test('every portal page fits 375 px with the menu closed; the menu opens, fits and is axe-clean; screenshots', async ({
  browser,
  request,
}) => {
  test.setTimeout(300_000);
  const context = await browser.newContext({ viewport: NARROW, timezoneId: 'America/New_York' });
  const page = await context.newPage();
  const fixture = await portalWithData(page, request, receiver.url);

  for (const [path, name] of fixture.pages) {
    await page.setViewportSize(NARROW);
    await page.goto(path);
    if (name !== 'docs') {
      // The portal layout: the links are behind the closed menu, the header is one line.
      await expect(menuButton(page), name).toHaveAttribute('aria-expanded', 'false');
      await expect(portalNav(page), name).toBeHidden();
      const header = await page.locator('header').boundingBox();
      expect(header?.height, `header height of ${name}`).toBeLessThanOrEqual(80);
    }
    expect(await sidewaysOverflow(page), `sideways overflow of ${name} at 375 px (menu closed)`).toBeLessThanOrEqual(0);
    if (!SHOWN.includes(name)) continue;

    await expectNoSeriousAxeViolations(page, `${name}, menu closed`);
    await page.screenshot({ path: `e2e/screenshots/nav-${name}-375-closed.png`, fullPage: true });
    await menuButton(page).click();
    await expect(menuButton(page)).toHaveAttribute('aria-expanded', 'true');
    await expect(portalNav(page).getByRole('link', { name: 'Audit log' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Sign out', exact: true })).toBeVisible();
    await expect(page.getByRole('link', { name: 'New workspace' })).toBeVisible();
    expect(await sidewaysOverflow(page), `sideways overflow of ${name} at 375 px (menu open)`).toBeLessThanOrEqual(0);
    await expectNoSeriousAxeViolations(page, `${name}, menu open`);
    await page.screenshot({ path: `e2e/screenshots/nav-${name}-375-open.png` });

    // Wide: tabs as before, no menu button; the account controls beside the workspace name.
    await page.setViewportSize(WIDE);
    await expect(menuButton(page)).toBeHidden();
    await expect(portalNav(page).getByRole('link', { name: 'Members' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Sign out', exact: true })).toBeVisible();
    await expectNoSeriousAxeViolations(page, `${name} at 1280 px`);
    await page.screenshot({ path: `e2e/screenshots/nav-${name}-1280.png`, fullPage: true });
  }

  // What the audit log and the request detail call a key is what the keys table shows: label and prefix.
  await page.setViewportSize(WIDE);
  await page.goto('/keys');
  const prefix = (
    await page
      .getByTestId('keys-table')
      .getByRole('row')
      .filter({ hasText: 'Checkout server' })
      .locator('.font-mono')
      .innerText()
  ).replace('…', '');
  await page.goto('/audit');
  const created = page.getByTestId('audit-log').locator('tr[data-action="key.created"]');
  await expect(created).toContainText(`API key “Checkout server” (${prefix}…)`);
  await expect(page.getByTestId('audit-log')).not.toContainText(/\bkey \d+\b/);
  await page.goto(`/requests/${fixture.requestId}`);
  await expect(page.getByTestId('request-detail')).toContainText(`API key “Checkout server” (${prefix}…)`);
  await expect(page.getByTestId('request-detail')).not.toContainText('(id ');
  await context.close();
});

test('keyboard only: the menu opens with Enter, Escape closes it and gives focus back, a link closes it', async ({
  browser,
}) => {
  const context = await browser.newContext({ viewport: NARROW });
  const page = await context.newPage();
  await signUp(page, uniqueEmail('menu-keys'));
  await page.goto('/keys');
  await expect(page.getByRole('heading', { name: 'API keys', level: 1 })).toBeVisible();

  // Skip link, then the menu button: nothing else in the header takes focus while the menu is closed.
  await page.keyboard.press('Tab');
  await expect(page.getByRole('link', { name: 'Skip to content' })).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(menuButton(page)).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(menuButton(page)).toHaveAttribute('aria-expanded', 'true');
  await expect(menuButton(page)).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(portalNav(page).getByRole('link', { name: 'Overview' })).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(portalNav(page).getByRole('link', { name: 'API keys' })).toBeFocused();
  await expect(portalNav(page).getByRole('link', { name: 'API keys' })).toHaveAttribute('aria-current', 'page');

  // Escape from inside the menu: closed, focus back on the button.
  await page.keyboard.press('Escape');
  await expect(menuButton(page)).toHaveAttribute('aria-expanded', 'false');
  await expect(menuButton(page)).toBeFocused();
  await expect(portalNav(page)).toBeHidden();

  // Space opens it too; Tab reaches every link, then New workspace and Sign out.
  await page.keyboard.press('Space');
  await expect(menuButton(page)).toHaveAttribute('aria-expanded', 'true');
  const reached: string[] = [];
  for (let i = 0; i < 20 && !reached.includes('Sign out'); i += 1) {
    await page.keyboard.press('Tab');
    reached.push(await page.evaluate(() => (document.activeElement as HTMLElement | null)?.innerText.trim() ?? ''));
  }
  expect(reached).toEqual([
    'Overview',
    'API keys',
    'Usage',
    'Request log',
    'Invoices',
    'Wallets',
    'Webhooks',
    'Billing',
    'Docs',
    'Account',
    'Audit log',
    'Members',
    'New workspace',
    'Sign out',
  ]);

  // Following a link with Enter: the page changes and the menu is closed there.
  await page.keyboard.press('Shift+Tab');
  await page.keyboard.press('Shift+Tab');
  await expect(portalNav(page).getByRole('link', { name: 'Members' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { name: 'Members', level: 1 })).toBeVisible();
  await expect(menuButton(page)).toHaveAttribute('aria-expanded', 'false');
  await expect(portalNav(page)).toBeHidden();

  // With a second workspace the switcher is in the menu too, and switching works from there.
  await menuButton(page).click();
  await page.getByRole('link', { name: 'New workspace' }).click();
  await page.getByLabel('Workspace name').fill('Phone side project');
  await page.getByRole('button', { name: 'Create workspace' }).click();
  await expect(page.getByTestId('workspace-name')).toHaveText('Phone side project');
  await expect(page.getByRole('form', { name: 'Switch workspace' })).toBeHidden();
  await menuButton(page).click();
  const switcher = page.getByRole('form', { name: 'Switch workspace' });
  await expect(switcher.getByLabel('Workspace')).toBeInViewport();
  await expect(switcher.getByRole('button', { name: 'Switch' })).toBeInViewport({ ratio: 1 });
  expect(await sidewaysOverflow(page), 'menu with the workspace switcher').toBeLessThanOrEqual(0);
  await expectNoSeriousAxeViolations(page, 'menu with the workspace switcher at 375 px');
  await page.screenshot({ path: 'e2e/screenshots/nav-switcher-375-open.png' });
  const first = (await switcher.getByLabel('Workspace').locator('option').allInnerTexts()).find(
    (label) => !label.startsWith('Phone side project'),
  );
  await switcher.getByLabel('Workspace').selectOption({ label: first! });
  await switcher.getByRole('button', { name: 'Switch' }).click();
  await expect(page.getByTestId('workspace-name')).not.toHaveText('Phone side project');
  await context.close();
});

test('one date format: the browser keeps its time zone in a cookie, and the server renders dates in it', async ({
  browser,
}) => {
  const context = await browser.newContext({ viewport: WIDE, timezoneId: 'Asia/Kolkata' });
  const page = await context.newPage();
  await signUp(page, uniqueEmail('dates'));
  // The first portal page stored the zone; from now on the server's HTML already has the local time.
  await expect
    .poll(async () => (await context.cookies()).find((cookie) => cookie.name === 'tz')?.value)
    .toMatch(/^Asia\/(Kolkata|Calcutta)$/); // Chromium reports the older name
  const html = await (await page.request.get('/audit')).text();
  const served = [...html.matchAll(/<time dateTime="([^"]+)" title="([^"]+)"[^>]*>(.*?)<\/time>/gi)].map(
    ([, iso, title, inner]) => [iso, title, textOf(inner!)],
  );
  expect(served.length).toBeGreaterThan(0);
  for (const [iso, title, text] of served) {
    expect(text).toMatch(DATE);
    expect(text).not.toContain('UTC');
    expect(title).toBe(`${iso!.slice(0, 19).replace('T', ' ')} UTC`);
    // Kolkata is UTC+5:30: the minutes differ from the UTC minutes by 30.
    expect(Number(/:(\d{2}) [AP]M$/.exec(text!)![1])).toBe((Number(iso!.slice(14, 16)) + 30) % 60);
  }
  // After hydration the text is the same (no flash of another format).
  await page.goto('/audit');
  const shown = await page.locator('main time').allInnerTexts();
  expect(shown).toEqual(served.map((match) => match[2]));

  // Without the cookie (a first visit) the server says UTC; the browser then switches to local time, same format.
  await context.clearCookies({ name: 'tz' });
  const first = await (await page.request.get('/audit')).text();
  const firstTimes = [...first.matchAll(/<time [^>]*>(.*?)<\/time>/g)].map((match) => textOf(match[1]!));
  expect(firstTimes.length).toBeGreaterThan(0);
  for (const text of firstTimes) expect(text).toMatch(/ UTC$/);
  await page.goto('/audit');
  await expect(page.locator('main time').first()).not.toContainText('UTC');
  await expect(page.locator('main time').first()).toHaveText(DATE);
  await context.close();
});
