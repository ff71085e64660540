import type { Client } from '../client.js';
import type { Invoice } from '../types.js';

/**
 * `trigger <event type>`: makes the API emit that event for real, with a test key: creates a test invoice and takes
 * it where the event happens. Only events the API can be driven to at once are offered.
 */
const BASE_INVOICE = { amount: '10.00', currency: 'USDT', network: 'tron' } as const;

export const TRIGGERS: Record<string, (client: Client, log: (line: string) => void) => Promise<void>> = {
  'invoice.created': async (client, log) => {
    await created(client, log, 'invoice.created');
  },
  'invoice.paid': async (client, log) => {
    const invoice = await created(client, log, 'invoice.paid');
    const paid = await client.testHelpers.invoices.simulatePayment(invoice.id);
    log(`Simulated the payment of ${paid.id}: ${paid.status}`);
  },
  'invoice.cancelled': async (client, log) => {
    const invoice = await created(client, log, 'invoice.cancelled');
    const cancelled = await client.invoices.cancel(invoice.id);
    log(`Cancelled ${cancelled.id}: ${cancelled.status}`);
  },
};

async function created(client: Client, log: (line: string) => void, trigger: string): Promise<Invoice> {
  const invoice = await client.invoices.create({
    ...BASE_INVOICE,
    description: `Triggered by the CLI (${trigger})`,
    metadata: { trigger },
  });
  log(`Created test invoice ${invoice.id} (${invoice.amount} ${invoice.currency} on ${invoice.network})`);
  return invoice;
}

export async function trigger(client: Client, type: string, log: (line: string) => void): Promise<void> {
  const run = TRIGGERS[type];
  if (!run)
    throw new Error(`Cannot trigger ${JSON.stringify(type)}. Triggerable events: ${Object.keys(TRIGGERS).join(', ')}`);
  const me = await client.me();
  if (me.key.environment !== 'test')
    throw new Error('trigger needs a test_ key: it creates invoices and simulates their payment in test mode');
  await run(client, log);
}
