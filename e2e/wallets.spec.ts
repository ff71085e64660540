import { expect, test } from '@playwright/test';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { expectNoSeriousAxeViolations } from './axe';
import { confirmIdentity, freshEvmAddress, signUp, uniqueEmail } from './helpers';

test('wallets: an invalid address shows the validation message; a valid one is saved', async ({ page }) => {
  await signUp(page, uniqueEmail('wallets'));
  await page.goto('/wallets');
  const ethereum = page.getByRole('form', { name: 'Ethereum wallet' });
  await ethereum.getByLabel('Ethereum address').fill('0x1234');
  await ethereum.getByRole('button', { name: 'Save Ethereum' }).click();
  await expect(ethereum.getByText('An EVM address is 0x followed by 40 hexadecimal characters')).toBeVisible();

  // Mixed case with a broken EIP-55 checksum.
  await ethereum.getByLabel('Ethereum address').fill('0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD');
  await ethereum.getByRole('button', { name: 'Save Ethereum' }).click();
  await expect(ethereum.getByText('The address has an invalid EIP-55 checksum')).toBeVisible();

  // Invalid addresses are refused before any password prompt; a valid one needs the step-up (docs/portal.md).
  const valid = freshEvmAddress();
  await ethereum.getByLabel('Ethereum address').fill(valid);
  await ethereum.getByRole('button', { name: 'Save Ethereum' }).click();
  await confirmIdentity(page);
  await expect(ethereum.getByText('Saved.')).toBeVisible();
  await page.reload();
  await expect(page.getByLabel('Ethereum address')).toHaveValue(valid);
});

test("wallets: another workspace's address needs the key's signature of the message shown", async ({
  browser,
  page,
}) => {
  const owner = privateKeyToAccount(generatePrivateKey());
  // Alice's workspace holds the address.
  const alice = await browser.newPage();
  await signUp(alice, uniqueEmail('wallet-alice'));
  await alice.goto('/wallets');
  await alice.getByLabel('Ethereum address').fill(owner.address);
  await alice.getByRole('button', { name: 'Save Ethereum' }).click();
  await confirmIdentity(alice);
  await expect(alice.getByRole('form', { name: 'Ethereum wallet' }).getByText('Saved.')).toBeVisible();
  await alice.close();

  // Bob enters it: refused, with the message to sign and a signature field.
  await signUp(page, uniqueEmail('wallet-bob'));
  await page.goto('/wallets');
  const ethereum = page.getByRole('form', { name: 'Ethereum wallet' });
  await ethereum.getByLabel('Ethereum address').fill(owner.address);
  await ethereum.getByRole('button', { name: 'Save Ethereum' }).click();
  await confirmIdentity(page);
  await expect(ethereum.getByText('already the wallet of another workspace')).toBeVisible();
  const message = (await page.getByTestId('claim-message-ethereum').textContent()) ?? '';
  expect(message).toContain(owner.address);
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.screenshot({ path: 'e2e/screenshots/wallet-claim-1280.png', fullPage: true });
  await page.setViewportSize({ width: 375, height: 812 });
  await expectNoSeriousAxeViolations(page, 'wallet claim');
  await page.screenshot({ path: 'e2e/screenshots/wallet-claim-375.png', fullPage: true });
  await page.setViewportSize({ width: 1280, height: 900 });

  // A signature by another key is refused; the owner's key's signature is accepted (keyboard only).
  await ethereum.getByLabel('Signature').fill(await privateKeyToAccount(generatePrivateKey()).signMessage({ message }));
  await ethereum.getByLabel('Signature').press('Enter');
  await expect(ethereum.getByText('does not prove control')).toBeVisible();
  await ethereum.getByLabel('Signature').fill(await owner.signMessage({ message }));
  await ethereum.getByLabel('Signature').press('Enter');
  await expect(ethereum.getByText('Saved.')).toBeVisible();
});
