import createClient from 'openapi-fetch';
import type { Exchange, Keys } from './exchange';
import type { paths } from './generated/schema';

/**
 * A client written against the types openapi-typescript generates from the served document (generated/, made by
 * tests/contract/typed-client.test.ts), covering every operation. Type-checked under strict by that test; run
 * against the real server by it too, which then checks that every response received fits the generated types.
 */
export async function exercise(baseUrl: string, keys: Keys): Promise<Exchange[]> {
  const client = createClient<paths>({ baseUrl, headers: { 'X-API-Key': keys.full } });
  const exchanges: Exchange[] = [];
  const record = (
    operationId: string,
    path: keyof paths & string,
    method: Exchange['method'],
    result: { response: Response; data?: unknown; error?: unknown },
  ) => {
    exchanges.push({
      operationId,
      path,
      method,
      status: result.response.status,
      contentType: (result.response.headers.get('content-type') ?? '').split(';')[0]!.trim(),
      body: result.data ?? result.error,
    });
  };

  record('getMe', '/v1/me', 'get', await client.GET('/v1/me'));
  record('headGetMe', '/v1/me', 'head', await client.HEAD('/v1/me'));
  record('optionsGetMe', '/v1/me', 'options', await client.OPTIONS('/v1/me'));
  record('getMe', '/v1/me', 'get', await client.GET('/v1/me', { headers: { 'X-API-Key': 'test_not-a-key' } }));

  const created = await client.POST('/v1/invoices', {
    body: { amount: '12.5', currency: 'USDT', network: 'polygon', metadata: { order: '7' }, expires_in: 900 },
    params: { header: { 'Idempotency-Key': `typed-${Date.now()}-${Math.random()}` } },
  });
  record('createInvoice', '/v1/invoices', 'post', created);
  const id = created.data?.id ?? 'inv_000000000000000000000000';
  record(
    'createInvoice',
    '/v1/invoices',
    'post',
    await client.POST('/v1/invoices', { body: { amount: '0', currency: 'ETH', network: 'base' } }),
  );
  record(
    'createInvoice',
    '/v1/invoices',
    'post',
    await client.POST('/v1/invoices', {
      body: { amount: '1', currency: 'BTC', network: 'bitcoin' },
      headers: { 'X-API-Key': keys.readOnly },
    }),
  );

  record(
    'listInvoices',
    '/v1/invoices',
    'get',
    await client.GET('/v1/invoices', { params: { query: { limit: 2, status: 'pending' } } }),
  );
  record('headListInvoices', '/v1/invoices', 'head', await client.HEAD('/v1/invoices'));
  record('optionsListInvoices', '/v1/invoices', 'options', await client.OPTIONS('/v1/invoices'));

  record('getInvoice', '/v1/invoices/{id}', 'get', await client.GET('/v1/invoices/{id}', { params: { path: { id } } }));
  record(
    'getInvoice',
    '/v1/invoices/{id}',
    'get',
    await client.GET('/v1/invoices/{id}', { params: { path: { id: 'inv_000000000000000000000000' } } }),
  );
  record(
    'headGetInvoice',
    '/v1/invoices/{id}',
    'head',
    await client.HEAD('/v1/invoices/{id}', { params: { path: { id } } }),
  );
  record(
    'optionsGetInvoice',
    '/v1/invoices/{id}',
    'options',
    await client.OPTIONS('/v1/invoices/{id}', { params: { path: { id } } }),
  );

  record(
    'simulateInvoicePayment',
    '/v1/test/invoices/{id}/simulate-payment',
    'post',
    await client.POST('/v1/test/invoices/{id}/simulate-payment', { params: { path: { id } }, body: {} }),
  );
  record(
    'simulateInvoicePayment',
    '/v1/test/invoices/{id}/simulate-payment',
    'post',
    await client.POST('/v1/test/invoices/{id}/simulate-payment', {
      params: { path: { id } },
      headers: { 'X-API-Key': keys.live },
    }),
  );
  record(
    'headSimulateInvoicePayment',
    '/v1/test/invoices/{id}/simulate-payment',
    'head',
    await client.HEAD('/v1/test/invoices/{id}/simulate-payment', { params: { path: { id } } }),
  );
  record(
    'optionsSimulateInvoicePayment',
    '/v1/test/invoices/{id}/simulate-payment',
    'options',
    await client.OPTIONS('/v1/test/invoices/{id}/simulate-payment', { params: { path: { id } } }),
  );

  const second = await client.POST('/v1/invoices', { body: { amount: '0.5', currency: 'ETH', network: 'ethereum' } });
  const secondId = second.data?.id ?? id;
  record(
    'cancelInvoice',
    '/v1/invoices/{id}/cancel',
    'post',
    await client.POST('/v1/invoices/{id}/cancel', { params: { path: { id: secondId } } }),
  );
  record(
    'cancelInvoice',
    '/v1/invoices/{id}/cancel',
    'post',
    await client.POST('/v1/invoices/{id}/cancel', { params: { path: { id: secondId } } }),
  );
  record(
    'headCancelInvoice',
    '/v1/invoices/{id}/cancel',
    'head',
    await client.HEAD('/v1/invoices/{id}/cancel', { params: { path: { id } } }),
  );
  record(
    'optionsCancelInvoice',
    '/v1/invoices/{id}/cancel',
    'options',
    await client.OPTIONS('/v1/invoices/{id}/cancel', { params: { path: { id } } }),
  );

  const events = await client.GET('/v1/events', { params: { query: { limit: 5, type: 'invoice.created' } } });
  record('listEvents', '/v1/events', 'get', events);
  record('headListEvents', '/v1/events', 'head', await client.HEAD('/v1/events'));
  record('optionsListEvents', '/v1/events', 'options', await client.OPTIONS('/v1/events'));
  const eventId = events.data?.data[0]?.id ?? 'evt_000000000000000000000000';
  record(
    'getEvent',
    '/v1/events/{id}',
    'get',
    await client.GET('/v1/events/{id}', { params: { path: { id: eventId } } }),
  );
  record(
    'getEvent',
    '/v1/events/{id}',
    'get',
    await client.GET('/v1/events/{id}', { params: { path: { id: 'evt_000000000000000000000000' } } }),
  );
  record(
    'headGetEvent',
    '/v1/events/{id}',
    'head',
    await client.HEAD('/v1/events/{id}', { params: { path: { id: eventId } } }),
  );
  record(
    'optionsGetEvent',
    '/v1/events/{id}',
    'options',
    await client.OPTIONS('/v1/events/{id}', { params: { path: { id: eventId } } }),
  );

  // Priced in fiat: the oneOf's second variant, then what it would lock.
  record(
    'createInvoice',
    '/v1/invoices',
    'post',
    await client.POST('/v1/invoices', {
      body: { price_amount: '49.00', price_currency: 'USD', currency: 'ETH', network: 'ethereum' },
    }),
  );
  record(
    'createInvoice',
    '/v1/invoices',
    'post',
    await client.POST('/v1/invoices', {
      body: { price_amount: '9.99', price_currency: 'EUR', currency: 'USDC', network: 'base' },
    }),
  );
  record(
    'getRate',
    '/v1/rates',
    'get',
    await client.GET('/v1/rates', { params: { query: { currency: 'BTC', price_currency: 'EUR' } } }),
  );
  record(
    'getRate',
    '/v1/rates',
    'get',
    // @ts-expect-error price_currency is a closed set (the server answers 400)
    await client.GET('/v1/rates', { params: { query: { currency: 'BTC', price_currency: 'GBP' } } }),
  );
  record(
    'headGetRate',
    '/v1/rates',
    'head',
    await client.HEAD('/v1/rates', { params: { query: { currency: 'ETH', price_currency: 'USD' } } }),
  );
  record('optionsGetRate', '/v1/rates', 'options', await client.OPTIONS('/v1/rates'));

  record('getOpenApiDocument', '/v1/openapi.json', 'get', await client.GET('/v1/openapi.json'));
  record('headGetOpenApiDocument', '/v1/openapi.json', 'head', await client.HEAD('/v1/openapi.json'));
  record('optionsGetOpenApiDocument', '/v1/openapi.json', 'options', await client.OPTIONS('/v1/openapi.json'));
  return exchanges;
}

// What the generated types must refuse (each line must be a type error, or `tsc` fails on an unused directive).
export async function refused(baseUrl: string): Promise<void> {
  const client = createClient<paths>({ baseUrl });
  // @ts-expect-error BTC is paid on bitcoin only: the currency × network union refuses BTC on tron
  await client.POST('/v1/invoices', { body: { amount: '1', currency: 'BTC', network: 'tron' } });
  // @ts-expect-error amounts are decimal strings, never JSON numbers
  await client.POST('/v1/invoices', { body: { amount: 1, currency: 'USDT', network: 'tron' } });
  // @ts-expect-error the create body is strict: no environment field
  await client.POST('/v1/invoices', { body: { amount: '1', currency: 'USDT', network: 'tron', mode: 'live' } });
  // @ts-expect-error priced in crypto or in fiat: price_amount needs price_currency
  await client.POST('/v1/invoices', { body: { price_amount: '49.00', currency: 'ETH', network: 'ethereum' } });
  await client.POST('/v1/invoices', {
    // @ts-expect-error prices are decimal strings, never JSON numbers
    body: { price_amount: 49, price_currency: 'USD', currency: 'ETH', network: 'ethereum' },
  });
  // @ts-expect-error limit is an integer
  await client.GET('/v1/invoices', { params: { query: { limit: 'ten' } } });
  // @ts-expect-error status filter is a closed set
  await client.GET('/v1/invoices', { params: { query: { status: 'open' } } });
}

// Lookups into the generated types, for the check that every received response fits them (see the test).
type Operation<P extends keyof paths, M extends string> = M extends keyof paths[P] ? NonNullable<paths[P][M]> : never;
type Responses<P extends keyof paths, M extends string> = Operation<P, M> extends { responses: infer R } ? R : never;

/** The documented body type of one response; `never` when the status or content type is not documented. */
export type ResponseBody<
  P extends keyof paths,
  M extends string,
  S extends number,
  C extends string,
> = S extends keyof Responses<P, M>
  ? Responses<P, M>[S] extends { content: infer Content }
    ? C extends keyof Content
      ? Content[C]
      : never
    : never
  : never;

/** `true` when the status is documented for the operation (responses without a body: HEAD, 204). */
export type HasStatus<P extends keyof paths, M extends string, S extends number> = S extends keyof Responses<P, M>
  ? true
  : false;
