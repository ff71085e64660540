import { expect, test, type Browser, type Page } from '@playwright/test';
import { expectNoSeriousAxeViolations } from './axe';
import { confirmIdentity, createKey, PASSWORD, signUp, uniqueEmail } from './helpers';

/** Invites `email` with `role` from the Members page; returns the link from the one-time dialog (then closed). */
async function invite(page: Page, email: string, role: 'Admin' | 'Developer' | 'Viewer'): Promise<string> {
  await page.goto('/members');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Role', { exact: true }).selectOption({ label: role });
  await page.getByRole('button', { name: 'Invite', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: `Invitation for ${email}` });
  await expect(dialog).toBeVisible();
  const link = await dialog.getByTestId('invitation-link').inputValue();
  expect(link).toMatch(/\/invite\/[A-Za-z0-9_-]{43}$/);
  await dialog.getByRole('button', { name: 'Done' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId('invitations-table').getByText(email)).toBeVisible();
  return link;
}

/** A fresh browser (no session) opens the link and creates the invited account; ends on the Overview. */
async function acceptBySigningUp(
  browser: Browser,
  link: string,
  email: string,
  viewport = { width: 1280, height: 900 },
): Promise<Page> {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  await page.goto(new URL(link).pathname);
  await expect(page.getByTestId('invited-email')).toHaveText(email);
  await page.getByLabel('Choose a password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Create account and join' }).click();
  await expect(page.getByRole('heading', { name: 'Overview', level: 1 })).toBeVisible();
  return page;
}

test('invite → accept → create and switch workspaces; the Owner changes the role with a step-up', async ({
  page,
  browser,
}) => {
  const owner = uniqueEmail('team-owner');
  const workspace = `Acme ${Date.now().toString(36)}`;
  await signUp(page, owner, workspace);
  const invitee = uniqueEmail('team-dev');
  const link = await invite(page, invitee, 'Developer');
  await page.screenshot({ path: 'e2e/screenshots/members-1280.png', fullPage: true });
  await expectNoSeriousAxeViolations(page, 'members page (Owner)');

  const dev = await acceptBySigningUp(browser, link, invitee);
  await expect(dev.getByTestId('workspace-name')).toHaveText(workspace);
  await expect(dev.getByTestId('workspace-role')).toHaveText('Developer');
  // A used link is a clear page, not an error.
  await dev.goto(new URL(link).pathname);
  await expect(dev.getByRole('heading', { name: 'Invitation not valid' })).toBeVisible();
  await expect(dev.getByText('already used')).toBeVisible();

  // A Developer makes test keys only: the live choice is not offered.
  await dev.goto('/keys');
  await expect(dev.getByRole('radio', { name: /Test/ })).toBeVisible();
  await expect(dev.getByRole('radio', { name: /Live/ })).toHaveCount(0);

  // A workspace of their own, then back through the switcher.
  await dev.getByRole('link', { name: 'New workspace' }).click();
  await dev.getByLabel('Workspace name').fill('Side project');
  await dev.getByRole('button', { name: 'Create workspace' }).click();
  await expect(dev.getByTestId('workspace-name')).toHaveText('Side project');
  await expect(dev.getByTestId('workspace-role')).toHaveText('Owner');
  await dev
    .getByRole('form', { name: 'Switch workspace' })
    .getByLabel('Workspace')
    .selectOption({ label: `${workspace} (Developer)` });
  await dev.getByRole('button', { name: 'Switch' }).click();
  await expect(dev.getByTestId('workspace-name')).toHaveText(workspace);
  // Remembered by the session: a new page load stays there.
  await dev.goto('/usage');
  await expect(dev.getByTestId('workspace-name')).toHaveText(workspace);
  await dev.screenshot({ path: 'e2e/screenshots/switcher-1280.png' });
  await expectNoSeriousAxeViolations(dev, 'usage page with the workspace switcher');

  // The Owner makes the Developer a Viewer: a role change asks to confirm it is them.
  await page.goto('/members');
  const row = page.locator(`tr[data-member="${invitee}"]`);
  await row.getByLabel(`Role of ${invitee}`, { exact: true }).selectOption('viewer');
  await row.getByRole('button', { name: `Change role of ${invitee}` }).click();
  await confirmIdentity(page);
  await expect(page.getByText(`${invitee} is now Viewer.`)).toBeVisible();
  await dev.reload();
  await expect(dev.getByTestId('workspace-role')).toHaveText('Viewer');
  await dev.context().close();
});

test('a Viewer sees no secret and no mutating button (375 px, axe-clean)', async ({ page, browser }) => {
  const owner = uniqueEmail('viewer-owner');
  await signUp(page, owner, 'Viewer test');
  const key = await createKey(page, { label: 'Checkout server' });
  const viewerEmail = uniqueEmail('viewer');
  const link = await invite(page, viewerEmail, 'Viewer');
  const viewer = await acceptBySigningUp(browser, link, viewerEmail, { width: 375, height: 800 });
  await expect(viewer.getByTestId('workspace-role')).toHaveText('Viewer');

  // At 375 px the links are behind the Menu button (docs/portal.md, "Navigation on phones").
  await viewer.getByRole('button', { name: 'Menu', exact: true }).click();
  const nav = viewer.getByRole('navigation', { name: 'Portal' });
  for (const hidden of ['API keys', 'Webhooks', 'Wallets', 'Billing', 'Audit log'])
    await expect(nav.getByRole('link', { name: hidden })).toHaveCount(0);
  for (const shown of ['Overview', 'Invoices', 'Usage', 'Request log', 'Members'])
    await expect(nav.getByRole('link', { name: shown })).toBeVisible();

  // The buttons a Viewer may use: none that changes the workspace.
  const allowedButtons = /^(Menu|Sign out|Leave this workspace|Copy.*|Search|Filter|Show|Apply|Previous|Next|Find)$/;
  for (const path of ['/', '/invoices', '/usage', '/requests', '/members']) {
    await viewer.goto(path);
    await expect(viewer.getByRole('heading', { level: 1 })).toBeVisible();
    const html = await viewer.content();
    expect(html, path).not.toContain(key.secret);
    expect(html, path).not.toMatch(/(test|live)_[A-Za-z0-9]{20,}/);
    const buttons = await viewer.getByRole('button').allInnerTexts();
    expect(
      buttons.map((b) => b.trim()).filter((b) => !allowedButtons.test(b)),
      path,
    ).toEqual([]);
    await expect(viewer.getByRole('link', { name: 'New invoice' })).toHaveCount(0);
    await expectNoSeriousAxeViolations(viewer, `${path} as a Viewer at 375 px`);
  }
  await viewer.goto('/members');
  await expect(viewer.getByRole('form', { name: 'Invite a member' })).toHaveCount(0);
  await expect(viewer.getByTestId('invitations-table')).toHaveCount(0);
  await viewer.screenshot({ path: 'e2e/screenshots/members-viewer-375.png', fullPage: true });

  // Pages the role table does not give a Viewer answer 403 with a clear page.
  for (const path of ['/keys', '/webhooks', '/wallets', '/billing', '/audit', '/invoices/new']) {
    const response = await viewer.goto(path);
    expect(response?.status(), path).toBe(403);
    await expect(viewer.getByRole('heading', { name: 'Not available for your role' })).toBeVisible();
  }
  await viewer.screenshot({ path: 'e2e/screenshots/forbidden-375.png', fullPage: true });
  await expectNoSeriousAxeViolations(viewer, '403 page at 375 px');

  // The Owner's Members page at 375 px, keyboard only to the invite form.
  await page.setViewportSize({ width: 375, height: 800 });
  await page.goto('/members');
  await page.screenshot({ path: 'e2e/screenshots/members-375.png', fullPage: true });
  await expectNoSeriousAxeViolations(page, 'members page at 375 px');
  await viewer.context().close();
});

test('an invitation opened by another signed-in account gets a clear page', async ({ page, browser }) => {
  await signUp(page, uniqueEmail('wrong-owner'), 'Wrong account test');
  const link = await invite(page, uniqueEmail('intended'), 'Developer');
  const context = await browser.newContext();
  const other = await context.newPage();
  await signUp(other, uniqueEmail('someone-else'));
  await other.goto(new URL(link).pathname);
  await expect(other.getByTestId('wrong-account')).toContainText('This invitation is for another email');
  await expect(other.getByRole('button', { name: 'Sign out, then sign in with the invited email' })).toBeVisible();
  await other.screenshot({ path: 'e2e/screenshots/invite-wrong-account-1280.png', fullPage: true });
  await expectNoSeriousAxeViolations(other, 'invitation for another account');
  await context.close();
});
