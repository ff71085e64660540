import { expect, test, type Page, type Request } from '@playwright/test';
import { generateSync } from 'otplib';
import { expectNoSeriousAxeViolations } from './axe';
import {
  alerts,
  confirmIdentity,
  createKey,
  freshEvmAddress,
  freshTronAddress,
  keyRow,
  PASSWORD,
  signIn,
  signUp,
  uniqueEmail,
} from './helpers';

// docs/portal.md: payout wallets and live keys need proof, not just a session (step-up), and optional TOTP
// two-factor sign-in. The domain-level rules are tested in lib/auth/step-up.test.ts and two-factor.test.ts.

const WIDE = { width: 1280, height: 900 };
const NARROW = { width: 375, height: 812 };
// Fresh per test: an address is the wallet of one workspace per network (docs/portal.md, "Wallet ownership").
let ETH_OWNER = '';
let ETH_OWNER_NEW = '';
let ETH_ATTACKER = '';
let TRON = '';
test.beforeEach(() => {
  [ETH_OWNER, ETH_OWNER_NEW, ETH_ATTACKER] = [freshEvmAddress(), freshEvmAddress(), freshEvmAddress()];
  TRON = freshTronAddress();
});

async function noSidewaysScroll(page: Page, what: string) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth), `page width of ${what}`).toBeLessThanOrEqual(
    NARROW.width,
  );
}

/** Screenshots at 1280 and 375 px (full page unless a dialog is open), axe and no sideways scroll at 375. */
async function shoot(page: Page, name: string, fullPage = true) {
  await page.setViewportSize(WIDE);
  await page.screenshot({ path: `e2e/screenshots/${name}-1280.png`, fullPage });
  await page.setViewportSize(NARROW);
  await noSidewaysScroll(page, name);
  await expectNoSeriousAxeViolations(page, name);
  await page.screenshot({ path: `e2e/screenshots/${name}-375.png`, fullPage });
  await page.setViewportSize(WIDE);
}

/** A server action call as the browser sent it: enough to send it again by hand (a forged call). */
interface RecordedAction {
  url: string;
  headers: Record<string, string>;
  body: string;
}

function recordActions(page: Page): RecordedAction[] {
  const recorded: RecordedAction[] = [];
  page.on('request', (request: Request) => {
    const headers = request.headers();
    if (request.method() === 'POST' && headers['next-action']) {
      recorded.push({ url: request.url(), headers, body: request.postData() ?? '' });
    }
  });
  return recorded;
}

function lastWith(recorded: RecordedAction[], needles: string[], without: string[] = []): RecordedAction {
  const found = recorded
    .filter(
      (r) => needles.every((needle) => r.body.includes(needle)) && !without.some((other) => r.body.includes(other)),
    )
    .at(-1);
  if (!found) throw new Error(`no recorded server action with ${needles.join(', ')}`);
  return found;
}

/**
 * Sends a recorded server action again, by hand, from `page`'s browser context (its cookies, i.e. its session),
 * with parts of the form data replaced: what an attacker holding a session cookie can do without the portal UI.
 */
async function forge(page: Page, action: RecordedAction, replace: Array<[string, string]> = []): Promise<string> {
  let body = action.body;
  for (const [from, to] of replace) body = body.replaceAll(from, to);
  const headers = Object.fromEntries(
    Object.entries(action.headers).filter(([name]) =>
      ['next-action', 'content-type', 'accept', 'next-router-state-tree', 'origin'].includes(name),
    ),
  );
  const response = await page.request.post(action.url, { headers, data: body });
  expect(response.status()).toBe(200);
  return response.text();
}

async function auditCount(page: Page, action: string): Promise<number> {
  await page.goto('/audit');
  return page.locator(`tr[data-action="${action}"]`).count();
}

test('step-up: wallet set/remove and live key create/roll need the password again; forged calls without it change nothing', async ({
  browser,
  page,
}) => {
  test.setTimeout(180_000);
  const email = uniqueEmail('stepup');
  await signUp(page, email);
  const recorded = recordActions(page);

  // 1. Setting a wallet: the server refuses the session alone, the portal asks for the password (keyboard only).
  await page.goto('/wallets');
  const ethereum = page.getByRole('form', { name: 'Ethereum wallet' });
  await ethereum.getByLabel('Ethereum address').fill(ETH_OWNER);
  await ethereum.getByLabel('Ethereum address').press('Enter');
  const stepUp = page.getByRole('dialog', { name: 'Confirm it is you' });
  await expect(stepUp).toBeVisible();
  await expect(stepUp.getByLabel('Password')).toBeFocused();
  expect(lastWith(recorded, [ETH_OWNER])).toBeTruthy(); // the first call went to the server, which refused it
  await shoot(page, 'step-up-dialog', false);
  await stepUp.getByLabel('Password').focus();
  await page.keyboard.type('not my password');
  await page.keyboard.press('Enter');
  await expect(stepUp.getByText('The password is not correct.').first()).toBeVisible();
  await stepUp.getByLabel('Password').fill('');
  await page.keyboard.type(PASSWORD);
  await page.keyboard.press('Enter');
  await expect(stepUp).toBeHidden();
  await expect(ethereum.getByText('Saved.')).toBeVisible();

  // 2. Within 5 minutes no second prompt: change the wallet, remove and re-add it, create and roll a live key.
  await ethereum.getByLabel('Ethereum address').fill(ETH_OWNER_NEW);
  await ethereum.getByRole('button', { name: 'Save Ethereum' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Ethereum wallet saved.' })).toBeVisible();
  await expect(stepUp).toBeHidden();
  await page.getByLabel('Tron address').fill(TRON);
  await page.getByRole('button', { name: 'Save Tron' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Tron wallet saved.' })).toBeVisible();
  await page.getByRole('button', { name: 'Remove Tron wallet' }).click();
  await page
    .getByRole('dialog', { name: 'Remove the Tron wallet?' })
    .getByRole('button', { name: 'Remove wallet' })
    .click();
  await expect(page.getByRole('status').filter({ hasText: 'Tron wallet removed.' })).toBeVisible();
  // The refreshed page re-creates the emptied field: type only once it has.
  await expect(page.getByRole('button', { name: 'Remove Tron wallet' })).toHaveCount(0);
  await expect(page.getByLabel('Tron address')).toHaveValue('');
  await page.getByLabel('Tron address').fill(TRON);
  await page.getByRole('button', { name: 'Save Tron' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Tron wallet saved.' })).toBeVisible();
  await createKey(page, { label: 'Live one', environment: 'live' });
  const liveRow = keyRow(page, 'Live one');
  const liveKeyId = String(await liveRow.getAttribute('data-key-id'));
  await liveRow.getByRole('button', { name: 'Roll key Live one' }).click();
  await liveRow.getByRole('button', { name: 'Roll key' }).click();
  const rolled = page.getByRole('dialog', { name: 'Key rolled: Live one' });
  await expect(rolled).toBeVisible();
  await rolled.getByRole('button', { name: 'I have saved the secret' }).click();

  const walletSet = lastWith(recorded, [ETH_OWNER_NEW]);
  const walletRemove = lastWith(recorded, ['tron'], [TRON]); // the removal carries the network only
  const keyCreate = lastWith(recorded, ['Live one', 'live']);
  const keyRoll = lastWith(recorded, ['grace']);
  expect(keyRoll.body).toContain(liveKeyId);
  // The recorded calls are replayable: from this (stepped-up) session a hand-made call does change the wallet.
  expect(await forge(page, walletSet, [[ETH_OWNER_NEW, ETH_OWNER]])).not.toContain('step_up_required');
  await page.goto('/wallets');
  await expect(page.getByLabel('Ethereum address')).toHaveValue(ETH_OWNER);

  const before = {
    walletSet: await auditCount(page, 'wallet.set'),
    walletRemoved: await auditCount(page, 'wallet.removed'),
    keyCreated: await auditCount(page, 'key.created'),
    keyRolled: await auditCount(page, 'key.rolled'),
  };

  // 3. Another session of the same user (e.g. a stolen cookie) that has not confirmed the password: every
  //    forged call is refused by the server with step_up_required and changes nothing.
  const attackerContext = await browser.newContext();
  const attacker = await attackerContext.newPage();
  await signIn(attacker, email);
  await expect(attacker.getByRole('heading', { name: 'Overview', level: 1 })).toBeVisible();
  expect(await forge(attacker, walletSet, [[ETH_OWNER_NEW, ETH_ATTACKER]])).toContain('step_up_required');
  expect(await forge(attacker, walletRemove)).toContain('step_up_required');
  expect(await forge(attacker, keyCreate, [['Live one', 'Forged live']])).toContain('step_up_required');
  expect(await forge(attacker, keyRoll)).toContain('step_up_required');
  await attackerContext.close();

  await page.goto('/wallets');
  await expect(page.getByLabel('Ethereum address')).toHaveValue(ETH_OWNER);
  await expect(page.getByLabel('Tron address')).toHaveValue(TRON);
  await page.goto('/keys');
  await expect(keyRow(page, 'Forged live')).toHaveCount(0);
  await expect(page.getByTestId('keys-table').getByRole('row')).toHaveCount(3); // header, Live one, its successor
  expect(await auditCount(page, 'wallet.set')).toBe(before.walletSet);
  expect(await auditCount(page, 'wallet.removed')).toBe(before.walletRemoved);
  expect(await auditCount(page, 'key.created')).toBe(before.keyCreated);
  expect(await auditCount(page, 'key.rolled')).toBe(before.keyRolled);
  await expect(page.locator('tr[data-action="user.stepped_up"]')).toHaveCount(1);

  // 4. The overview shows what changed, so a change made from a hijacked session is seen.
  await page.goto('/');
  const changes = page.getByTestId('security-changes');
  await expect(changes).toContainText('Wallet for ethereum changed less than a minute ago');
  await expect(changes).toContainText('Wallet for tron removed');
  await expect(changes).toContainText('Live key “Live one” rolled');
  await expect(changes).toContainText(`by ${email}`);
  await shoot(page, 'overview-security-changes');
});

function totp(secret: string, steps = 0): string {
  return generateSync({ secret, epoch: Math.floor((Date.now() + steps * 30_000) / 1000) });
}

async function signOut(page: Page) {
  await page.getByRole('button', { name: 'Sign out', exact: true }).click();
  await expect(page).toHaveURL(/\/signin/);
}

test('two-factor: enrol (QR and text, confirmed by a code), recovery codes once; sign-in asks for a code; a recovery code works once; step-up asks for a code', async ({
  page,
}) => {
  test.setTimeout(180_000);
  const email = uniqueEmail('totp');
  await signUp(page, email);
  await page.goto('/account');
  await expect(page.getByTestId('two-factor-status')).toContainText('Off.');

  // Enrol: needs the password again; the secret as a QR code and as text; a wrong code is refused.
  await page.getByRole('button', { name: 'Set up two-factor sign-in' }).click();
  await confirmIdentity(page);
  await expect(page.getByRole('img', { name: /QR code of the two-factor secret/ })).toBeVisible();
  const secret = (await page.getByTestId('totp-secret').textContent())?.trim() ?? '';
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  await shoot(page, 'two-factor-enrol');
  const confirmForm = page.getByRole('form', { name: 'Confirm two-factor sign-in' });
  await confirmForm.getByLabel('Code from the app').fill('000000');
  await confirmForm.getByRole('button', { name: 'Turn on two-factor sign-in' }).click();
  await expect(confirmForm.getByText('The code does not match.')).toBeVisible();
  await confirmForm.getByLabel('Code from the app').fill(totp(secret));
  await confirmForm.getByRole('button', { name: 'Turn on two-factor sign-in' }).click();

  // Ten recovery codes, shown once in a dialog that Escape does not close.
  const codesDialog = page.getByRole('dialog', { name: /save your recovery codes/ });
  await expect(codesDialog).toBeVisible();
  const recovery = (await codesDialog.getByTestId('recovery-codes').getByRole('listitem').allTextContents()).map((c) =>
    c.trim(),
  );
  expect(recovery).toHaveLength(10);
  await shoot(page, 'two-factor-recovery-codes', false);
  await page.keyboard.press('Escape');
  await expect(codesDialog).toBeVisible();
  await codesDialog.getByRole('button', { name: 'I have saved these codes' }).click();
  await expect(codesDialog).toBeHidden();
  await expect(page.getByTestId('two-factor-status')).toContainText('On.');
  await expect(page.getByTestId('two-factor-status')).toContainText('10 recovery codes are left');
  await expect(page.getByText(recovery[0] ?? '-')).toHaveCount(0);
  await shoot(page, 'account-two-factor-on');

  // Sign-in, keyboard only: the password alone brings up the code field (focused); a wrong code is refused.
  await signOut(page);
  await page.getByLabel('Email').focus();
  await page.keyboard.type(email);
  await page.keyboard.press('Tab');
  await page.keyboard.type(PASSWORD);
  await page.keyboard.press('Enter');
  await expect(page.getByLabel('Authentication code')).toBeFocused();
  await shoot(page, 'signin-code');
  await page.getByLabel('Authentication code').focus();
  await page.keyboard.type('123456');
  await page.keyboard.press('Enter');
  await expect(alerts(page).first()).toContainText('That code is not correct, or was already used');
  await page.getByLabel('Authentication code').fill('');
  await page.getByLabel('Authentication code').focus();
  await page.keyboard.type(totp(secret, 1));
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { name: 'Overview', level: 1 })).toBeVisible();
  await expect(page.getByTestId('security-changes')).toContainText('Two-factor sign-in turned on');

  // A recovery code signs in once; the second time it is refused.
  for (const expectOk of [true, false]) {
    await signOut(page);
    await signIn(page, email);
    await page.getByLabel('Authentication code').fill(recovery[0] ?? '');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    if (expectOk) await expect(page.getByRole('heading', { name: 'Overview', level: 1 })).toBeVisible();
    else await expect(alerts(page).first()).toContainText('That code is not correct, or was already used');
  }
  await page.getByLabel('Authentication code').fill(recovery[1] ?? '');
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Overview', level: 1 })).toBeVisible();

  // The step-up now asks for a code as well as the password, and every place that warns of it says so.
  await page.goto('/wallets');
  await expect(
    page.getByText('confirm it is you (your password and a code from your authenticator app (or a recovery code)'),
  ).toBeVisible();
  await page.getByLabel('Tron address').fill(TRON);
  await page.getByRole('button', { name: 'Save Tron' }).click();
  const stepUp = page.getByRole('dialog', { name: 'Confirm it is you' });
  await expect(stepUp.getByLabel('Authentication code')).toBeVisible();
  await expect(stepUp).toContainText('your password and a code from your authenticator app (or a recovery code)');
  await confirmIdentity(page, { code: recovery[2] });
  await expect(page.getByRole('status').filter({ hasText: 'Tron wallet saved.' })).toBeVisible();

  // Turning it off needs the step-up (given just now) and confirmation.
  await page.goto('/account');
  await expect(page.getByTestId('two-factor-status')).toContainText('7 recovery codes are left');
  await page.getByRole('button', { name: 'Turn off two-factor sign-in' }).click();
  await page
    .getByRole('dialog', { name: 'Turn off two-factor sign-in?' })
    .getByRole('button', { name: 'Turn off' })
    .click();
  await expect(page.getByRole('status').filter({ hasText: 'Two-factor sign-in is off.' })).toBeVisible();
  await expect(page.getByTestId('two-factor-status')).toContainText('Off.');
  await signOut(page);
  await signIn(page, email);
  await expect(page.getByRole('heading', { name: 'Overview', level: 1 })).toBeVisible();
});
