import { afterEach, describe, expect, it } from 'vitest';
import { db } from '@/lib/db';
import { createWebhookEndpoint } from '@/lib/webhooks/endpoints';
import type { WorkerProcess } from '../../scripts/worker-process';
import { seedAccount, VALID_INVOICE } from '../support/fixtures';
import { call } from '../support/http';
import { startReceiver, type Receiver, type ReceivedRequest, type Reply } from '../support/receiver';
import { eventually, nextExpirySweepAt, queuedJobs, startTestWorker } from '../support/worker';
import { EXPIRY_SWEEP_SECONDS } from '@/lib/worker/tasks';

const workers: WorkerProcess[] = [];
const receivers: Receiver[] = [];
afterEach(async (context) => {
  if (context.task.result?.state === 'fail')
    workers.forEach((worker, i) => console.error(`--- worker ${i} output ---\n${worker.output()}`));
  await Promise.all(workers.splice(0).map((worker) => worker.stop()));
  await Promise.all(receivers.splice(0).map((receiver) => receiver.close()));
});

async function worker(env: Record<string, string> = {}) {
  const started = await startTestWorker(env);
  workers.push(started);
  return started;
}

async function accountWithEndpoint(reply?: (request: ReceivedRequest, index: number) => Reply) {
  const account = await seedAccount();
  const receiver = await startReceiver(reply);
  receivers.push(receiver);
  const { endpoint } = await createWebhookEndpoint(
    account.workspace.id,
    { url: receiver.url, environment: 'test' },
    { allowPrivateNetworks: true },
  );
  return { ...account, receiver, endpoint };
}

describe('the worker', () => {
  it('killed with SIGKILL mid-delivery loses nothing: another worker makes the attempt again', async () => {
    const account = await accountWithEndpoint((_request, index) => (index === 0 ? 'hang' : { status: 200 }));
    const first = await worker();
    await call('POST', '/v1/invoices', { key: account.secret, body: VALID_INVOICE });
    const [inFlight] = await account.receiver.waitFor(1);
    await first.kill(); // the attempt is in flight: no response yet, nothing recorded

    // The survivor treats a process silent for 3 s as dead (30 s by default) and releases its queue locks.
    await worker({ WORKER_STALE_AFTER_SECONDS: '3' });
    const requests = await account.receiver.waitFor(2, 30_000);
    expect(requests[1]!.headers['webhook-id']).toBe(inFlight!.headers['webhook-id']);
    const delivery = await eventually(async () => {
      const row = await db().webhookDelivery.findFirst({ where: { endpointId: account.endpoint.id } });
      return row?.status === 'succeeded' ? row : undefined;
    });
    expect(delivery.attempts).toBe(1);
  }, 60_000);

  it('two workers on one database make each attempt once', async () => {
    const account = await accountWithEndpoint();
    await Promise.all([worker(), worker()]);
    const created = await Promise.all(
      Array.from({ length: 25 }, () => call('POST', '/v1/invoices', { key: account.secret, body: VALID_INVOICE })),
    );
    // Each status (and a refusal's problem) in the message, should one not be a 201.
    expect(
      created.map((result) => (result.status === 201 ? 201 : `${result.status} ${JSON.stringify(result.json)}`)),
    ).toEqual(Array(25).fill(201));
    await account.receiver.waitFor(25);
    await eventually(
      async () =>
        (await db().webhookDelivery.count({ where: { endpointId: account.endpoint.id, status: 'succeeded' } })) === 25,
    );
    // No job left for these deliveries: any duplicate attempt would have been made (and received) already.
    const deliveries = await db().webhookDelivery.findMany({
      where: { endpointId: account.endpoint.id },
      select: { id: true },
    });
    await eventually(
      async () => (await queuedJobs(deliveries.map((row) => `delivery:${row.id}`))) === 0,
      20_000,
      'the delivery jobs to leave the queue',
    );
    const ids = account.receiver.received.map((request) => request.headers['webhook-id']);
    expect(ids).toHaveLength(25);
    expect(new Set(ids).size).toBe(25);
    const attempts = await db().webhookDelivery.findMany({
      where: { endpointId: account.endpoint.id },
      select: { attempts: true },
    });
    expect(attempts.every((row) => row.attempts === 1)).toBe(true);
  }, 60_000);

  it('emits invoice.expired once per invoice, within seconds of expires_at, with two workers running', async () => {
    const account = await accountWithEndpoint();
    const invoice = (await call('POST', '/v1/invoices', { key: account.secret, body: VALID_INVOICE })).json;
    await Promise.all([worker(), worker()]);
    // expires_in is at least 300 s through the API: move this invoice's expiry to just now instead of waiting.
    const expiresAt = new Date(Date.now() + 500);
    await db().invoice.update({ where: { id: invoice.id }, data: { expiresAt } });
    const event = await eventually(
      () =>
        db()
          .event.findFirst({ where: { workspaceId: account.workspace.id, type: 'invoice.expired' } })
          .then((row) => row ?? undefined),
      10_000,
      'invoice.expired',
    );
    expect(event.createdAt.getTime() - expiresAt.getTime()).toBeLessThan(10_000);
    const expiredDelivery = await eventually(
      async () =>
        account.receiver.received
          .map((request) => JSON.parse(request.body))
          .find((body) => body.type === 'invoice.expired'),
      20_000,
      'the invoice.expired delivery',
    );
    expect(expiredDelivery.data.object).toMatchObject({ id: invoice.id, status: 'expired' });
    // A whole sweep after the one that announced it has run (it re-queued itself past that point): a second
    // invoice.expired would exist now.
    const announcedAt = event.createdAt.getTime();
    await eventually(
      async () => ((await nextExpirySweepAt())?.getTime() ?? 0) >= announcedAt + 2 * EXPIRY_SWEEP_SECONDS * 1000,
      20_000,
      'a later expiry sweep',
    );
    expect(await db().event.count({ where: { workspaceId: account.workspace.id, type: 'invoice.expired' } })).toBe(1);
  }, 60_000);
});
