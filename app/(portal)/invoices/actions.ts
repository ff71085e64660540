'use server';

import { revalidatePath } from 'next/cache';
import { redirect } from 'next/navigation';
import { z } from 'zod';
import { cancelInvoice, createInvoice, simulateInvoicePayment } from '@/lib/invoices/invoices';
import { CreateInvoiceBody, InvoiceId } from '@/lib/invoices/schemas';
import { KEY_ENVIRONMENTS } from '@/lib/keys/api-key-secret';
import { PRICE_CURRENCIES } from '@/lib/rates/feeds';
import { withWorkspace } from '@/lib/portal/action';
import { forEnvironment } from '@/lib/teams/roles';

// Every action runs in the signed-in user's workspace: an id from the form that is not an invoice of this
// workspace (in the environment named) is "not found". The environment is data too: it only picks which
// of the workspace's own scopes to look in.
const Environment = z.enum(KEY_ENVIRONMENTS);
const InvoiceForm = z.object({ invoiceId: InvoiceId, environment: Environment });

export const simulatePayment = withWorkspace(
  { permission: 'invoices.write_test' },
  z.object({ invoiceId: InvoiceId }),
  async (ctx, input) => {
    const invoice = await simulateInvoicePayment(
      { workspaceId: ctx.workspace.id, environment: 'test' },
      input.invoiceId,
    );
    revalidatePath('/invoices', 'layout');
    return { id: invoice.id, status: invoice.status };
  },
);

/** Cancels a pending invoice, test or live, through the same domain function as POST /v1/invoices/{id}/cancel. */
export const cancelPortalInvoice = withWorkspace(
  { permission: 'invoices.write_test', forInput: (input) => forEnvironment('invoices', input.environment) },
  InvoiceForm,
  async (ctx, input) => {
    const invoice = await cancelInvoice(
      { workspaceId: ctx.workspace.id, environment: input.environment },
      input.invoiceId,
    );
    revalidatePath('/invoices', 'layout');
    return { id: invoice.id, status: invoice.status };
  },
);

const empty = (value: unknown) => (typeof value === 'string' && value.trim() === '' ? undefined : value);

/**
 * The portal's "New invoice" form: the form's strings become the API's create body (blank optional fields are
 * left out, expiry is seconds) and go through the same schema and the same createInvoice as POST /v1/invoices,
 * on every plan (the Merchant plan's way in). Field errors come back under the API's field names.
 */
const NewInvoiceForm = z.object({
  environment: Environment,
  amount: z.string(),
  // "crypto": amount is in the currency; USD or EUR: amount is the price, converted at a locked rate (docs/rates.md).
  priced_in: z.preprocess(empty, z.enum(['crypto', ...PRICE_CURRENCIES]).default('crypto')),
  currency: z.string(),
  network: z.string(),
  description: z.preprocess(empty, z.string().optional()),
  order_id: z.preprocess(empty, z.string().optional()),
  expires_in: z.coerce.number(),
});

export const createPortalInvoice = withWorkspace(
  { permission: 'invoices.write_test', forInput: (input) => forEnvironment('invoices', input.environment) },
  NewInvoiceForm,
  async (ctx, input) => {
    const { environment, priced_in, amount, ...rest } = input;
    const fields =
      priced_in === 'crypto' ? { ...rest, amount } : { ...rest, price_amount: amount, price_currency: priced_in };
    const body = CreateInvoiceBody.parse(fields);
    const invoice = await createInvoice({ workspaceId: ctx.workspace.id, environment }, body);
    revalidatePath('/invoices', 'layout');
    redirect(`/invoices/${invoice.id}?created=1`);
  },
);
