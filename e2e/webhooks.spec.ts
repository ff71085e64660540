import { expect, test, type Page } from '@playwright/test';
import { Webhook } from 'standardwebhooks';
import { startReceiver, type Receiver } from '../tests/support/receiver';
import { expectNoSeriousAxeViolations } from './axe';
import { alerts, api, createKey, signUp, switchPlan, TEST_INVOICE, uniqueEmail } from './helpers';

async function screenshots(page: Page, name: string) {
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.screenshot({ path: `e2e/screenshots/${name}-1280.png`, fullPage: true });
  await page.setViewportSize({ width: 375, height: 800 });
  await page.screenshot({ path: `e2e/screenshots/${name}-375.png`, fullPage: true });
  await page.setViewportSize({ width: 1280, height: 900 });
}

let receiver: Receiver;
test.beforeEach(async () => {
  // A real HTTP receiver on 127.0.0.1; its answer's body is HTML, to check the log shows it as text.
  receiver = await startReceiver(() => ({
    status: 200,
    headers: { 'content-type': 'text/html' },
    body: '<b>thanks</b>',
  }));
});
test.afterEach(async () => {
  await receiver.close();
});

test('webhooks: add an endpoint (secret once) → API invoice created and paid → log shows both delivered → Resend sends the same webhook-id; roll, test event, disable/enable, delete', async ({
  page,
  request,
}) => {
  await signUp(page, uniqueEmail('hooks'));
  await switchPlan(page, 'Developer');
  const key = await createKey(page, { label: 'Webhook e2e key' });

  await page.getByRole('navigation', { name: 'Portal' }).getByRole('link', { name: 'Webhooks' }).click();
  await expect(page.getByRole('heading', { name: 'Webhooks', level: 1 })).toBeVisible();
  await expect(page.getByText('Leave all unchecked to receive every event type')).toBeVisible();
  await expectNoSeriousAxeViolations(page, 'the webhooks page');

  // A refused URL is explained beside the field, and what was typed is kept.
  await page.getByLabel('Endpoint URL').fill(receiver.url);
  await page.getByLabel(/Description/).fill('Order system');
  await page.getByRole('radio', { name: /^Live/ }).check();
  await page.getByRole('button', { name: 'Add endpoint' }).click();
  await expect(page.locator('#endpoint-url-error')).toHaveText('Live endpoints must use https://');
  await expect(page.getByLabel('Endpoint URL')).toHaveValue(receiver.url);
  await expect(page.getByLabel(/Description/)).toHaveValue('Order system');
  await expect(page.getByLabel('Endpoint URL')).toHaveAttribute('aria-invalid', 'true');
  await expectNoSeriousAxeViolations(page, 'the endpoint form after an error');

  // Test environment, all events: created; the secret is shown once, focused, in a no-store response.
  // Keyboard only: choose Test with the arrow keys and submit with Enter from the URL field.
  await page.getByRole('radio', { name: /^Live/ }).focus();
  await page.keyboard.press('ArrowLeft');
  await expect(page.getByRole('radio', { name: /^Test/ })).toBeChecked();
  await page.getByLabel('Endpoint URL').focus();
  const actionResponse = page.waitForResponse(
    (r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/webhooks',
  );
  await page.keyboard.press('Enter');
  expect((await actionResponse).headers()['cache-control']).toContain('no-store');
  const dialog = page.getByRole('dialog', { name: `Endpoint added: ${receiver.url}` });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByLabel('Signing secret')).toBeFocused();
  const secret = await dialog.getByLabel('Signing secret').inputValue();
  expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
  await expectNoSeriousAxeViolations(page, 'the signing-secret dialog');
  await screenshots(page, 'webhook-secret-dialog');
  await dialog.getByRole('button', { name: 'I have saved the secret' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByLabel('Endpoint URL')).toHaveValue('');

  const row = page.getByTestId('endpoints-table').getByRole('row').filter({ hasText: receiver.url });
  await expect(row).toContainText('All events');
  await expect(row).toContainText('enabled');
  await expect(row).toContainText('Order system');
  expect(await page.content()).not.toContain(secret.slice(6));
  await screenshots(page, 'webhooks-list');

  // Through the API: create and simulate-pay a test invoice.
  const invoice = await api(request, 'POST', '/v1/invoices', key.secret, TEST_INVOICE);
  expect(invoice.status).toBe(201);
  expect((await api(request, 'POST', `/v1/test/invoices/${invoice.json.id}/simulate-payment`, key.secret)).status).toBe(
    200,
  );
  const delivered = await receiver.waitFor(2);
  const verified = delivered.map((r) => new Webhook(secret).verify(r.body, r.headers) as { id: string; type: string });
  expect(verified.map((e) => e.type).sort()).toEqual(['invoice.created', 'invoice.paid']);
  const paid = verified.find((e) => e.type === 'invoice.paid')!;

  // The delivery log shows both delivered, with the receiver's answer escaped.
  // Keyboard: the row's link is reachable and opens with Enter.
  await row.getByRole('link', { name: /Manage/ }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { name: 'Webhook endpoint', level: 1 })).toBeVisible();
  const deliveryRow = (type: string) => page.getByTestId('deliveries-table').locator(`tr[data-event-type="${type}"]`);
  await expect(async () => {
    await page.reload();
    await expect(deliveryRow('invoice.created')).toContainText('delivered', { timeout: 1000 });
    await expect(deliveryRow('invoice.paid')).toContainText('delivered', { timeout: 1000 });
  }).toPass({ timeout: 30_000 });
  const paidRow = deliveryRow('invoice.paid');
  await expect(paidRow).toContainText(paid.id);
  await expect(paidRow).toContainText('200');
  await paidRow.getByText('Response body (first 2 KiB)').click();
  await expect(paidRow.locator('pre')).toHaveText('<b>thanks</b>');
  await expectNoSeriousAxeViolations(page, 'the delivery log');
  await screenshots(page, 'webhook-delivery-log');

  // Resend: one more request, with the same webhook-id, still verifying.
  await paidRow.getByRole('button', { name: /^Resend invoice.paid/ }).click();
  const [, , resent] = await receiver.waitFor(3);
  expect(resent!.headers['webhook-id']).toBe(paid.id);
  expect((new Webhook(secret).verify(resent!.body, resent!.headers) as { id: string }).id).toBe(paid.id);

  // Roll the secret (confirm first): the new one is shown once; for 24 h both sign.
  await page.getByRole('button', { name: 'Roll secret' }).click();
  await expect(page.getByText('For 24 hours every delivery carries two signatures')).toBeVisible();
  await page.getByRole('button', { name: 'Confirm roll' }).click();
  const rolledDialog = page.getByRole('dialog', { name: 'Signing secret rolled' });
  await expect(rolledDialog).toContainText('keeps signing, beside this one, for 24 hours');
  const newSecret = await rolledDialog.getByLabel('Signing secret').inputValue();
  expect(newSecret).not.toBe(secret);
  await rolledDialog.getByRole('button', { name: 'I have saved the secret' }).click();
  await expect(page.getByText('The previous signing secret also signs deliveries until')).toBeVisible();

  // Send test event: verifies with either secret.
  await page.getByRole('button', { name: 'Send test event' }).click();
  await expect(page.getByText(/Test event evt_\w+ queued/)).toBeVisible();
  const [, , , test4] = await receiver.waitFor(4);
  for (const s of [secret, newSecret])
    expect((new Webhook(s).verify(test4!.body, test4!.headers) as { type: string }).type).toBe('webhook_endpoint.test');

  // Disable shows the reason; enable clears it.
  await page.getByRole('button', { name: 'Disable', exact: true }).click();
  await expect(page.getByTestId('endpoint-status')).toContainText('disabled');
  await expect(page.getByTestId('endpoint-status')).toContainText('Disabled in the portal');
  await page.getByRole('button', { name: 'Enable', exact: true }).click();
  await expect(page.getByTestId('endpoint-status')).toHaveText('enabled');

  // Delete, with a confirmation.
  await page.getByRole('button', { name: 'Delete', exact: true }).click();
  await expect(page.getByText('cannot be undone')).toBeVisible();
  await page.getByRole('button', { name: 'Confirm delete' }).click();
  await expect(page.getByText('The endpoint was deleted.')).toBeVisible();
  await expect(page.getByText('No endpoints yet.')).toBeVisible();
  await expect(alerts(page)).toHaveCount(0);
});
