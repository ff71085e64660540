import { expect, test } from '@playwright/test';
import { confirmIdentity, signUp, uniqueEmail } from './helpers';

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
  await ethereum.getByLabel('Ethereum address').fill('0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed');
  await ethereum.getByRole('button', { name: 'Save Ethereum' }).click();
  await confirmIdentity(page);
  await expect(ethereum.getByText('Saved.')).toBeVisible();
  await page.reload();
  await expect(page.getByLabel('Ethereum address')).toHaveValue('0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed');
});
