import { Transport, type ClientOptions, type RequestOptions } from './http.js';
import { PageList, type Page } from './pagination.js';
import type {
  Event,
  EventListParams,
  Invoice,
  InvoiceCreateParams,
  InvoiceListParams,
  Me,
  Rate,
  RateParams,
} from './types.js';
import { webhooks, type Webhooks } from './webhooks.js';

const id = (value: string) => encodeURIComponent(value);

export class Invoices {
  constructor(private readonly transport: Transport) {}

  /** POST /v1/invoices. Safe to retry: an Idempotency-Key is sent (pass your own to retry across processes). */
  create(params: InvoiceCreateParams, options?: RequestOptions): Promise<Invoice> {
    return this.transport.request({ method: 'POST', path: '/v1/invoices', body: params }, options);
  }

  retrieve(invoiceId: string, options?: RequestOptions): Promise<Invoice> {
    return this.transport.request({ method: 'GET', path: `/v1/invoices/${id(invoiceId)}` }, options);
  }

  /** Newest first. `await` it for one page, or `for await` over it for every invoice. */
  list(params: InvoiceListParams = {}, options?: RequestOptions): PageList<Invoice> {
    return new PageList((cursor) =>
      this.transport.request<Page<Invoice>>(
        { method: 'GET', path: '/v1/invoices', query: { ...params, starting_after: cursor ?? params.starting_after } },
        options,
      ),
    );
  }

  /** Cancels a pending invoice (409 invoice_not_cancellable otherwise). */
  cancel(invoiceId: string, options?: RequestOptions): Promise<Invoice> {
    return this.transport.request({ method: 'POST', path: `/v1/invoices/${id(invoiceId)}/cancel`, body: {} }, options);
  }
}

export class TestInvoices {
  constructor(private readonly transport: Transport) {}

  /** Test keys only: marks a pending test invoice paid (emits invoice.paid). */
  simulatePayment(invoiceId: string, options?: RequestOptions): Promise<Invoice> {
    return this.transport.request(
      { method: 'POST', path: `/v1/test/invoices/${id(invoiceId)}/simulate-payment`, body: {} },
      options,
    );
  }
}

export class Events {
  constructor(private readonly transport: Transport) {}

  retrieve(eventId: string, options?: RequestOptions): Promise<Event> {
    return this.transport.request({ method: 'GET', path: `/v1/events/${id(eventId)}` }, options);
  }

  /** Newest first, the key's workspace and environment. `await` it for one page, or `for await` over every event. */
  list(params: EventListParams = {}, options?: RequestOptions): PageList<Event> {
    return new PageList((cursor) =>
      this.transport.request<Page<Event>>(
        { method: 'GET', path: '/v1/events', query: { ...params, starting_after: cursor ?? params.starting_after } },
        options,
      ),
    );
  }
}

export class Rates {
  constructor(private readonly transport: Transport) {}

  /** The rate an invoice priced in `price_currency` and paid in `currency` would lock now (503 rate_unavailable when none is fresh). */
  retrieve(params: RateParams, options?: RequestOptions): Promise<Rate> {
    return this.transport.request({ method: 'GET', path: '/v1/rates', query: params }, options);
  }
}

/**
 * The API client. `new Client({ apiKey, baseUrl })`; every method returns the resource as the API documents it
 * and throws a typed error (errors.ts) when the API answers with one.
 */
export class Client {
  readonly invoices: Invoices;
  readonly events: Events;
  readonly rates: Rates;
  readonly testHelpers: { invoices: TestInvoices };
  readonly webhooks: Webhooks = webhooks;
  private readonly transport: Transport;

  constructor(options: ClientOptions = {}) {
    this.transport = new Transport(options);
    this.invoices = new Invoices(this.transport);
    this.events = new Events(this.transport);
    this.rates = new Rates(this.transport);
    this.testHelpers = { invoices: new TestInvoices(this.transport) };
  }

  get baseUrl(): string {
    return this.transport.baseUrl;
  }

  /** The calling key, its workspace and plan, and this month's usage. */
  me(options?: RequestOptions): Promise<Me> {
    return this.transport.request({ method: 'GET', path: '/v1/me' }, options);
  }
}
