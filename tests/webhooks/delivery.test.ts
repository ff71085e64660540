import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db } from '@/lib/db';
import { createWebhookEndpoint, rollWebhookSecret, sendTestEvent } from '@/lib/webhooks/endpoints';
import { resendDelivery } from '@/lib/webhooks/deliveries';
import type { WorkerProcess } from '../../scripts/worker-process';
import { seedAccount, VALID_INVOICE } from '../support/fixtures';
import { call } from '../support/http';
import { startReceiver, type Reply, type ReceivedRequest } from '../support/receiver';
import { eventually, queuedJobs, startTestWorker } from '../support/worker';

// Every delivery is checked with the third-party reference verifier (standardwebhooks), never with our own code.
function verify(secret: string, request: ReceivedRequest) {
  return new Webhook(secret).verify(request.body, request.headers) as {
    id: string;
    type: string;
    data: { object: { id: string } };
  };
}

async function accountWithEndpoint(
  reply?: (request: ReceivedRequest, index: number) => Reply,
  eventTypes: string[] = [],
) {
  const account = await seedAccount();
  const receiver = await startReceiver(reply);
  const { endpoint, secret } = await createWebhookEndpoint(
    account.workspace.id,
    { url: receiver.url, environment: 'test', event_types: eventTypes },
    { allowPrivateNetworks: true },
  );
  return { ...account, receiver, endpoint, webhookSecret: secret };
}

const deliveryOf = (endpointId: string) =>
  db().webhookDelivery.findFirst({ where: { endpointId }, orderBy: { createdAt: 'asc' } });

let worker: WorkerProcess;
beforeAll(async () => {
  worker = await startTestWorker();
});
afterAll(async () => {
  await worker?.stop();
});

describe('webhook delivery', () => {
  it('delivers each invoice change signed per Standard Webhooks; a tampered body or an old timestamp fails verification', async () => {
    const account = await accountWithEndpoint();
    const invoice = (await call('POST', '/v1/invoices', { key: account.secret, body: VALID_INVOICE })).json;
    await call('POST', `/v1/test/invoices/${invoice.id}/simulate-payment`, { key: account.secret });
    const requests = await account.receiver.waitFor(2);
    const payloads = requests.map((request) => verify(account.webhookSecret, request));
    expect(payloads.map((payload) => payload.type).sort()).toEqual(['invoice.created', 'invoice.paid']);
    for (const [i, request] of requests.entries()) {
      expect(request.headers['content-type']).toBe('application/json');
      expect(request.headers['webhook-id']).toBe(payloads[i]!.id);
      expect(payloads[i]!.data.object.id).toBe(invoice.id);
    }
    const stored = await call('GET', `/v1/events/${payloads[0]!.id}`, { key: account.secret });
    expect(JSON.parse(requests[0]!.body)).toEqual(stored.json);

    const tampered = { ...requests[0]!, body: requests[0]!.body.replace(invoice.id, 'inv_000000000000000000000000') };
    expect(() => verify(account.webhookSecret, tampered)).toThrow();
    const old = {
      ...requests[0]!,
      headers: { ...requests[0]!.headers, 'webhook-timestamp': String(Math.floor(Date.now() / 1000) - 3600) },
    };
    expect(() => verify(account.webhookSecret, old)).toThrow();
    await account.receiver.close();
  });

  it('only subscribed types are sent; the secret is stored encrypted, not in clear', async () => {
    const account = await accountWithEndpoint(undefined, ['invoice.paid']);
    const invoice = (await call('POST', '/v1/invoices', { key: account.secret, body: VALID_INVOICE })).json;
    await call('POST', `/v1/test/invoices/${invoice.id}/simulate-payment`, { key: account.secret });
    const [request] = await account.receiver.waitFor(1);
    expect(verify(account.webhookSecret, request!).type).toBe('invoice.paid');
    expect(await db().webhookDelivery.count({ where: { endpointId: account.endpoint.id } })).toBe(1);
    const row = await db().webhookEndpoint.findUniqueOrThrow({ where: { id: account.endpoint.id } });
    expect(row.secretCiphertext).not.toContain(account.webhookSecret.slice(6, 20));
    await account.receiver.close();
  });

  it('retries a failing receiver (500, 500, 200): three attempts with one webhook-id, then succeeded', async () => {
    const account = await accountWithEndpoint((_request, index) => ({
      status: index < 2 ? 500 : 200,
      body: index < 2 ? 'boom' : 'ok',
    }));
    await call('POST', '/v1/invoices', { key: account.secret, body: VALID_INVOICE });
    const requests = await account.receiver.waitFor(3);
    expect(new Set(requests.map((request) => request.headers['webhook-id'])).size).toBe(1);
    requests.forEach((request) => verify(account.webhookSecret, request));
    const delivery = await eventually(async () => {
      const row = await deliveryOf(account.endpoint.id);
      return row?.status === 'succeeded' ? row : undefined;
    });
    expect(delivery).toMatchObject({ attempts: 3, lastStatusCode: 200, lastResponseBody: 'ok', nextAttemptAt: null });
    await account.receiver.close();
  });

  it('410 Gone disables the endpoint at once and stops retrying', async () => {
    const account = await accountWithEndpoint(() => ({ status: 410 }));
    await call('POST', '/v1/invoices', { key: account.secret, body: VALID_INVOICE });
    await account.receiver.waitFor(1);
    const endpoint = await eventually(async () => {
      const row = await db().webhookEndpoint.findUniqueOrThrow({ where: { id: account.endpoint.id } });
      return row.status === 'disabled' ? row : undefined;
    });
    expect(endpoint.disabledReason).toMatch(/410 Gone/);
    const failed = await deliveryOf(account.endpoint.id);
    expect(failed?.status).toBe('failed');
    // Nothing is left in the queue for this delivery, so no further attempt can come.
    await eventually(
      async () => (await queuedJobs([`delivery:${failed!.id}`])) === 0,
      20_000,
      'the delivery job to leave the queue',
    );
    expect(account.receiver.received).toHaveLength(1);
    await account.receiver.close();
  });

  it('a redirect is not followed: the 3xx is a failed attempt', async () => {
    const target = await startReceiver();
    const account = await accountWithEndpoint(() => ({ status: 307, headers: { location: target.url } }));
    await call('POST', '/v1/invoices', { key: account.secret, body: VALID_INVOICE });
    await account.receiver.waitFor(2);
    const delivery = await deliveryOf(account.endpoint.id);
    expect(delivery?.lastStatusCode).toBe(307);
    expect(target.received).toHaveLength(0);
    await Promise.all([account.receiver.close(), target.close()]);
  });

  it('a receiver that never answers times out after 10 s: a failed attempt, retried', async () => {
    const account = await accountWithEndpoint((_request, index) => (index === 0 ? 'hang' : { status: 204 }));
    await call('POST', '/v1/invoices', { key: account.secret, body: VALID_INVOICE });
    await account.receiver.waitFor(2, 40_000);
    const delivery = await eventually(async () => {
      const row = await deliveryOf(account.endpoint.id);
      return row?.status === 'succeeded' ? row : undefined;
    });
    expect(delivery.attempts).toBe(2);
    await account.receiver.close();
  }, 60_000);

  it('during a secret roll both the new and the old secret verify; "Resend" repeats the webhook-id; the test event reaches only its endpoint', async () => {
    const account = await accountWithEndpoint();
    const { secret: newSecret } = await rollWebhookSecret(account.workspace.id, account.endpoint.id);
    await call('POST', '/v1/invoices', { key: account.secret, body: VALID_INVOICE });
    const [request] = await account.receiver.waitFor(1);
    expect(request!.headers['webhook-signature']!.split(' ')).toHaveLength(2);
    expect(verify(newSecret, request!).type).toBe('invoice.created');
    expect(verify(account.webhookSecret, request!).type).toBe('invoice.created');

    const delivery = await eventually(async () => {
      const row = await deliveryOf(account.endpoint.id);
      return row?.status === 'succeeded' ? row : undefined;
    });
    await resendDelivery(account.workspace.id, delivery.id);
    const [, again] = await account.receiver.waitFor(2);
    expect(again!.headers['webhook-id']).toBe(request!.headers['webhook-id']);

    const other = await createWebhookEndpoint(
      account.workspace.id,
      { url: account.receiver.url.replace('/hooks', '/other'), environment: 'test' },
      { allowPrivateNetworks: true },
    );
    await sendTestEvent(account.workspace.id, account.endpoint.id);
    const [, , test] = await account.receiver.waitFor(3);
    expect(verify(newSecret, test!).type).toBe('webhook_endpoint.test');
    // Deliveries are created with their event, in its transaction: none for the other endpoint means none will come.
    expect(account.receiver.received.filter((received) => received.path === '/other')).toHaveLength(0);
    expect(await db().webhookDelivery.count({ where: { endpointId: other.endpoint.id } })).toBe(0);
    await account.receiver.close();
  });
});
