import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWebhookEndpoint } from '@/lib/webhooks/endpoints';
import { resendDelivery } from '@/lib/webhooks/deliveries';
import { db } from '@/lib/db';
import { createWebhookReceiver, type WebhookEvent } from '../../docs/examples/webhook-receiver';
import type { WorkerProcess } from '../../scripts/worker-process';
import { seedAccount, VALID_INVOICE } from '../support/fixtures';
import { call } from '../support/http';
import { eventually, startTestWorker } from '../support/worker';

// The receiver shown in docs/webhooks.md is this file, run against real deliveries from a real worker.
const ROOT = path.resolve(import.meta.dirname, '..', '..');

let worker: WorkerProcess;
beforeAll(async () => {
  worker = await startTestWorker();
});
afterAll(async () => {
  await worker?.stop();
});

describe('docs/examples/webhook-receiver.ts', () => {
  it('is included verbatim in docs/webhooks.md', () => {
    const example = readFileSync(path.join(ROOT, 'docs/examples/webhook-receiver.ts'), 'utf8');
    const doc = readFileSync(path.join(ROOT, 'docs/webhooks.md'), 'utf8');
    expect(doc).toContain('```ts\n' + example + '```');
  });

  it(
    'verifies real deliveries, handles each webhook-id once (a resend is skipped), refuses a forged request',
    { timeout: 120_000 },
    async () => {
      const account = await seedAccount();
      const handled: WebhookEvent[] = [];
      let hits = 0;
      // The endpoint's secret exists only after the endpoint (whose URL needs the port) is created: listen
      // first, then hand every request to the example's own server.
      const listener = http.createServer();
      await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
      const { port } = listener.address() as AddressInfo;
      const created = await createWebhookEndpoint(
        account.workspace.id,
        { url: `http://127.0.0.1:${port}/hooks`, environment: 'test' },
        { allowPrivateNetworks: true },
      );
      const receiver = createWebhookReceiver({
        secret: created.secret,
        handle: async (event) => void handled.push(event),
      });
      listener.on('request', (req, res) => {
        hits += 1;
        receiver.emit('request', req, res);
      });
      try {
        const invoice = (await call('POST', '/v1/invoices', { key: account.secret, body: VALID_INVOICE })).json;
        await call('POST', `/v1/test/invoices/${invoice.id}/simulate-payment`, { key: account.secret });
        await eventually(async () => handled.length >= 2, 30_000, 'two handled events').catch(async (error: Error) => {
          // Say where the deliveries stood: not created, queued, retrying (with the attempt's error) or delivered.
          const deliveries = await db().webhookDelivery.findMany({
            where: { endpointId: created.endpoint.id },
            select: { status: true, attempts: true, lastStatusCode: true, lastError: true, nextAttemptAt: true },
          });
          throw new Error(
            `${error.message}: ${hits} requests, handled ${handled.length}, deliveries ${JSON.stringify(deliveries)}`,
          );
        });
        expect(handled.map((event) => event.type).sort()).toEqual(['invoice.created', 'invoice.paid']);
        expect(handled.every((event) => event.data.object.id === invoice.id)).toBe(true);

        // A resend carries the same webhook-id: the receiver answers 2xx and does not handle it again.
        const delivery = await db().webhookDelivery.findFirstOrThrow({
          where: { endpointId: created.endpoint.id },
          orderBy: { createdAt: 'asc' },
        });
        const before = hits;
        await resendDelivery(account.workspace.id, delivery.id);
        await eventually(async () => hits > before, 30_000, 'the resent delivery');
        await eventually(
          async () =>
            (await db().webhookDelivery.findUniqueOrThrow({ where: { id: delivery.id } })).status === 'succeeded',
          30_000,
          'resend recorded',
        );
        expect(handled).toHaveLength(2);

        // Not signed with the endpoint's secret: 400, not handled.
        const forged = await fetch(`http://127.0.0.1:${port}/hooks`, {
          method: 'POST',
          headers: {
            'webhook-id': 'msg_forged',
            'webhook-timestamp': String(Math.floor(Date.now() / 1000)),
            'webhook-signature': 'v1,AAAA',
          },
          body: JSON.stringify({ type: 'invoice.paid' }),
        });
        expect(forged.status).toBe(400);
        expect(handled).toHaveLength(2);
      } finally {
        listener.closeAllConnections();
        await new Promise<void>((resolve) => listener.close(() => resolve()));
      }
    },
  );
});
