import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { createWebhookEndpoint } from '@/lib/webhooks/endpoints';
import {
  APIConnectionTimeoutError,
  AuthenticationError,
  Client,
  ConflictError,
  InvalidRequestError,
  NotFoundError,
  PermissionError,
  SignatureVerificationError,
  type Event,
  type Invoice,
} from '../../sdk/src/index';
import { headerOf, startFaultProxy } from '../support/fault-proxy';
import { createKey, invoiceCount, seedAccount } from '../support/fixtures';
import { baseUrl } from '../support/http';
import { startAdditionalApp } from '../setup/app';
import { eventually, startTestWorker } from '../support/worker';

/**
 * The SDK (sdk/src) against the real server: every resource method, its retry rules (what is sent again, with
 * which Idempotency-Key, and what never is), pagination, timeouts, cancellation and webhook verification.
 * Faults are injected at the network (tests/support/fault-proxy.ts); the server is never stubbed.
 */
interface Attempt {
  method: string;
  url: string;
  idempotencyKey: string | null;
  status: number | 'network error';
}

/** A client whose attempts are recorded (its fetch is the global fetch, observed). */
function recordingClient(
  apiKey: string,
  options: { baseUrl?: string; maxRetries?: number; timeoutMs?: number; onAttempt?: (attempt: Attempt) => void } = {},
) {
  const attempts: Attempt[] = [];
  const client = new Client({
    apiKey,
    baseUrl: options.baseUrl ?? baseUrl(),
    maxRetries: options.maxRetries,
    timeoutMs: options.timeoutMs,
    fetch: async (input, init) => {
      const headers = new Headers(init?.headers);
      const attempt: Attempt = {
        method: init?.method ?? 'GET',
        url: String(input),
        idempotencyKey: headers.get('idempotency-key'),
        status: 'network error',
      };
      attempts.push(attempt);
      const response = await fetch(input, init);
      attempt.status = response.status;
      options.onAttempt?.(attempt);
      return response;
    },
  });
  return { client, attempts };
}

const INVOICE = { amount: '10.5', currency: 'USDT', network: 'tron' } as const;

describe('resources', () => {
  it('me, invoices create/retrieve/list/cancel, testHelpers.simulatePayment, events list/retrieve', async () => {
    const account = await seedAccount({ plan: 'Business' });
    const { client, attempts } = recordingClient(account.secret);

    const me = await client.me();
    expect(me.workspace.id).toBe(account.workspace.id);
    expect(me.key.environment).toBe('test');

    const created = await client.invoices.create({ ...INVOICE, description: 'SDK', metadata: { order: '7' } });
    expect(created).toMatchObject({
      object: 'invoice',
      status: 'pending',
      amount: '10.5',
      currency: 'USDT',
      network: 'tron',
      metadata: { order: '7' },
    });
    expect(attempts.at(-1)).toMatchObject({ method: 'POST', status: 201 });
    expect(attempts.at(-1)!.idempotencyKey).toMatch(/^sdk_[0-9a-f-]{36}$/);

    expect(await client.invoices.retrieve(created.id)).toEqual(created);

    const page = await client.invoices.list({ limit: 1 });
    expect(page).toMatchObject({ object: 'list', has_more: false, next_cursor: null });
    expect(page.data.map((invoice) => invoice.id)).toEqual([created.id]);

    const paid = await client.testHelpers.invoices.simulatePayment(created.id);
    expect(paid).toMatchObject({ id: created.id, status: 'paid' });

    const second = await client.invoices.create(INVOICE, { idempotencyKey: `mine-${account.workspace.id}` });
    expect(attempts.at(-1)!.idempotencyKey).toBe(`mine-${account.workspace.id}`);
    // The same key again: the stored response, not a second invoice.
    expect((await client.invoices.create(INVOICE, { idempotencyKey: `mine-${account.workspace.id}` })).id).toBe(
      second.id,
    );
    const cancelled = await client.invoices.cancel(second.id);
    expect(cancelled).toMatchObject({ id: second.id, status: 'cancelled' });
    expect(await invoiceCount(account.workspace.id)).toBe(2);

    const events = await client.events.list({ limit: 10 });
    expect(events.data.map((event) => `${event.type} ${(event.data.object as Invoice).id}`)).toEqual([
      `invoice.cancelled ${second.id}`,
      `invoice.created ${second.id}`,
      `invoice.paid ${created.id}`,
      `invoice.created ${created.id}`,
    ]);
    const onlyPaid: Event[] = [];
    for await (const event of client.events.list({ type: 'invoice.paid' })) onlyPaid.push(event);
    expect(onlyPaid.map((event) => event.id)).toEqual([events.data[2]!.id]);
    expect(await client.events.retrieve(events.data[0]!.id)).toEqual(events.data[0]);
    // Every call above succeeded at its first attempt.
    expect(attempts.every((attempt) => attempt.status === 200 || attempt.status === 201)).toBe(true);
  });

  it('rates.retrieve and a create priced in USD: the amount the rate locks', async () => {
    const { secret } = await seedAccount();
    const client = new Client({ apiKey: secret, baseUrl: baseUrl() });
    const rate = await client.rates.retrieve({ currency: 'USDC', price_currency: 'EUR' });
    expect(rate).toMatchObject({ object: 'rate', currency: 'USDC', price_currency: 'EUR', environment: 'test' });
    const invoice = await client.invoices.create({
      price_amount: '10.00',
      price_currency: 'EUR',
      currency: 'USDC',
      network: 'base',
    });
    expect(invoice).toMatchObject({
      price_amount: '10.00',
      price_currency: 'EUR',
      rate: rate.rate,
      rate_source: rate.rate_source,
    });
    await expect(client.rates.retrieve({ currency: 'USDC', price_currency: 'GBP' as 'EUR' })).rejects.toBeInstanceOf(
      InvalidRequestError,
    );
  });

  it('typed errors carry status, code, requestId and field errors; a 4xx is never sent again', async () => {
    const account = await seedAccount({ plan: 'Business' });
    const readOnly = await createKey(account.workspace.id, { scopes: ['invoices:read'] });
    const { client, attempts } = recordingClient(account.secret, { maxRetries: 5 });

    const invalid = await client.invoices
      .create({ amount: '0', currency: 'USDT', network: 'tron' })
      .catch((error: unknown) => error);
    expect(invalid).toBeInstanceOf(InvalidRequestError);
    expect(invalid).toMatchObject({ status: 400, code: 'validation_failed', errors: [{ path: 'amount' }] });
    expect((invalid as InvalidRequestError).requestId).toMatch(/^req_[0-9A-Za-z]+$/);
    expect(attempts).toHaveLength(1);

    await expect(client.invoices.retrieve('inv_000000000000000000000000')).rejects.toMatchObject({
      constructor: NotFoundError,
      status: 404,
      code: 'invoice_not_found',
    });
    const invoice = await client.invoices.create(INVOICE);
    await client.invoices.cancel(invoice.id);
    await expect(client.invoices.cancel(invoice.id)).rejects.toMatchObject({
      constructor: ConflictError,
      status: 409,
      code: 'invoice_not_cancellable',
    });
    await expect(recordingClient('test_not-a-real-key').client.me()).rejects.toMatchObject({
      constructor: AuthenticationError,
      status: 401,
    });
    await expect(recordingClient(readOnly.secret).client.invoices.create(INVOICE)).rejects.toMatchObject({
      constructor: PermissionError,
      status: 403,
      code: 'missing_scope',
    });
    expect(attempts.map((attempt) => attempt.status)).toEqual([400, 404, 201, 200, 409]);
    expect(await invoiceCount(account.workspace.id)).toBe(1);
  });
});

describe('retries', () => {
  it('a 429 burst: the refused create is sent again after Retry-After with the same key, and makes one invoice', async () => {
    // A server whose Developer plan allows 1 request a second: two reads empty the key's bucket, so the SDK's
    // create meets a 429 unless a whole second passed in between (a very slow machine: then another round).
    const slow = await startAdditionalApp({ env: { PLAN_DEVELOPER_RATE_LIMIT: '1' } });
    try {
      const account = await seedAccount({ plan: 'Developer' });
      for (let round = 0; ; round++) {
        const before = await invoiceCount(account.workspace.id);
        const { client, attempts } = recordingClient(account.secret, { baseUrl: slow.baseUrl, maxRetries: 5 });
        for (let read = 0; read < 3; read++) {
          const response = await fetch(`${slow.baseUrl}/v1/me`, { headers: { 'X-API-Key': account.secret } });
          await response.arrayBuffer();
        }
        const invoice = await client.invoices.create(INVOICE).catch((error: unknown) => {
          throw new Error(`create failed after ${JSON.stringify(attempts.map((attempt) => attempt.status))}`, {
            cause: error,
          });
        });
        if (attempts[0]!.status !== 429 && round < 4) continue;
        const statuses = JSON.stringify(attempts.map((attempt) => attempt.status));
        expect(attempts[0]!.status, statuses).toBe(429);
        expect(attempts.at(-1)!.status, statuses).toBe(201);
        expect(
          attempts.slice(1, -1).every((attempt) => attempt.status === 429),
          statuses,
        ).toBe(true);
        expect(new Set(attempts.map((attempt) => attempt.idempotencyKey)).size).toBe(1);
        expect(await invoiceCount(account.workspace.id)).toBe(before + 1);
        expect((await client.invoices.retrieve(invoice.id)).id).toBe(invoice.id);
        break;
      }
    } finally {
      await slow.stop();
    }
  }, 180_000);

  it('a connection killed after the server did the work: sent again with the same key, the stored invoice comes back', async () => {
    const account = await seedAccount({ plan: 'Business' });
    const proxy = await startFaultProxy(baseUrl(), (connection) => (connection === 0 ? 'drop-response' : 'pass'));
    try {
      const { client, attempts } = recordingClient(account.secret, { baseUrl: proxy.url });
      const invoice = await client.invoices.create(INVOICE);
      expect(attempts.map((attempt) => attempt.status)).toEqual(['network error', 201]);
      const keys = proxy.requests.map((head) => headerOf(head, 'idempotency-key'));
      expect(keys).toHaveLength(2);
      expect(keys[0]).toMatch(/^sdk_/);
      expect(keys[1]).toBe(keys[0]);
      expect(await invoiceCount(account.workspace.id)).toBe(1);
      expect((await client.invoices.list()).data.map((listed) => listed.id)).toEqual([invoice.id]);
    } finally {
      await proxy.close();
    }
  });

  it('a 503 is sent again after its Retry-After; network errors give up after maxRetries', async () => {
    const account = await seedAccount({ plan: 'Business' });
    const unavailable = {
      status: 503,
      headers: { 'Content-Type': 'application/problem+json', 'Retry-After': '1' },
      body: '{"code":"service_unavailable","status":503}',
    };
    const proxy = await startFaultProxy(baseUrl(), (connection) => (connection === 0 ? unavailable : 'pass'));
    try {
      const { client, attempts } = recordingClient(account.secret, { baseUrl: proxy.url });
      const started = Date.now();
      await client.invoices.create(INVOICE);
      expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
      expect(attempts.map((attempt) => attempt.status)).toEqual([503, 201]);
      expect(attempts[1]!.idempotencyKey).toBe(attempts[0]!.idempotencyKey);
    } finally {
      await proxy.close();
    }
    const closed = await startFaultProxy(baseUrl(), () => ({ status: 502, body: 'Bad gateway' }));
    try {
      const { client, attempts } = recordingClient(account.secret, { baseUrl: closed.url, maxRetries: 1 });
      await expect(client.me()).rejects.toMatchObject({ status: 502, code: 'unknown_error' });
      expect(attempts).toHaveLength(2);
    } finally {
      await closed.close();
    }
  });

  it('timeouts are per attempt and retried; an AbortSignal stops at once, without a retry', async () => {
    const proxy = await startFaultProxy(baseUrl(), () => 'hang');
    try {
      const { client, attempts } = recordingClient('test_whatever', {
        baseUrl: proxy.url,
        timeoutMs: 200,
        maxRetries: 1,
      });
      await expect(client.me()).rejects.toBeInstanceOf(APIConnectionTimeoutError);
      expect(attempts).toHaveLength(2);

      const controller = new AbortController();
      const pending = client.invoices.create(INVOICE, { signal: controller.signal, timeoutMs: 60_000 });
      await eventually(async () => attempts.length === 3, 10_000, 'the request to be sent');
      controller.abort();
      // The call has returned: no attempt can follow.
      await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
      expect(attempts).toHaveLength(3);
    } finally {
      await proxy.close();
    }
  });
});

describe('auto-pagination', () => {
  it('iterates 250 invoices, each once, newest first, 100 per page', async () => {
    const account = await seedAccount({ plan: 'Business' });
    const { client, attempts } = recordingClient(account.secret, { maxRetries: 5 });
    const ids: string[] = [];
    for (let batch = 0; batch < 25; batch++) {
      ids.push(
        ...(await Promise.all(Array.from({ length: 10 }, () => client.invoices.create(INVOICE)))).map(
          (invoice) => invoice.id,
        ),
      );
    }
    attempts.length = 0;
    const seen: string[] = [];
    for await (const invoice of client.invoices.list({ limit: 100 })) seen.push(invoice.id);
    expect(seen).toHaveLength(250);
    expect(new Set(seen)).toEqual(new Set(ids));
    expect(attempts.map((attempt) => new URL(attempt.url).searchParams.get('starting_after'))).toEqual([
      null,
      seen[99],
      seen[199],
    ]);
    // Newest first, as the API lists them.
    const listed = await client.invoices.list({ limit: 100 }).toArray();
    expect(listed.map((invoice) => invoice.id)).toEqual(seen);
    expect(Date.parse(listed[0]!.created_at)).toBeGreaterThanOrEqual(Date.parse(listed[249]!.created_at));
  });
});

describe('webhooks', () => {
  it('verify accepts a real delivery and rejects a tampered one; sign makes what verify and standardwebhooks accept', async () => {
    const account = await seedAccount({ plan: 'Business' });
    const deliveries: Array<{ body: string; headers: http.IncomingHttpHeaders }> = [];
    const receiver = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        deliveries.push({ body: Buffer.concat(chunks).toString('utf8'), headers: req.headers });
        res.end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
    const { secret } = await createWebhookEndpoint(
      account.workspace.id,
      { url, environment: 'test' },
      { allowPrivateNetworks: true },
    );
    const worker = await startTestWorker();
    try {
      const client = new Client({ apiKey: account.secret, baseUrl: baseUrl() });
      const invoice = await client.invoices.create(INVOICE);
      await eventually(async () => deliveries.length >= 1, 30_000, 'a delivery');
      const [delivery] = deliveries;

      const event = client.webhooks.verify(delivery!.body, delivery!.headers, secret);
      expect(event).toMatchObject({ object: 'event', type: 'invoice.created', data: { object: { id: invoice.id } } });
      expect(event).toEqual(await client.events.retrieve(event.id));
      // The same check from a fetch-style Headers object and a Buffer body.
      const headers = new Headers(
        Object.entries(delivery!.headers).map(([name, value]): [string, string] => [name, String(value)]),
      );
      expect(client.webhooks.verify(Buffer.from(delivery!.body), headers, secret).id).toBe(event.id);

      const tampered = delivery!.body.replace('"10.5"', '"0.01"');
      expect(tampered).not.toBe(delivery!.body);
      expect(() => client.webhooks.verify(tampered, delivery!.headers, secret)).toThrow(SignatureVerificationError);
      expect(() => client.webhooks.verify(delivery!.body, delivery!.headers, client.webhooks.generateSecret())).toThrow(
        SignatureVerificationError,
      );
      expect(() =>
        client.webhooks.verify(delivery!.body, { ...delivery!.headers, 'webhook-signature': undefined }, secret),
      ).toThrow(SignatureVerificationError);

      const signed = client.webhooks.sign({ payload: delivery!.body, secret, id: event.id });
      expect(client.webhooks.verify(delivery!.body, signed, secret).id).toBe(event.id);
      expect(new Webhook(secret).verify(delivery!.body, { ...signed })).toMatchObject({ id: event.id });
      const old = client.webhooks.sign({
        payload: delivery!.body,
        secret,
        timestamp: new Date(Date.now() - 10 * 60_000),
      });
      expect(() => client.webhooks.verify(delivery!.body, old, secret)).toThrow(/too old/);
    } finally {
      await worker.stop();
      receiver.closeAllConnections();
      await new Promise<void>((resolve) => receiver.close(() => resolve()));
    }
  });
});
