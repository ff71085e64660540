'use server';

import { revalidatePath } from 'next/cache';
import { z } from 'zod';
import { cancelInvoice, simulateInvoicePayment } from '@/lib/invoices/invoices';
import { InvoiceId } from '@/lib/invoices/schemas';
import { withWorkspace } from '@/lib/portal/action';

// The portal acts on TEST invoices only, always in the signed-in user's workspace: an id from the form
// that is not a test invoice of this workspace is "not found".
const InvoiceForm = z.object({ invoiceId: InvoiceId });

export const simulatePayment = withWorkspace(InvoiceForm, async (ctx, input) => {
  const invoice = await simulateInvoicePayment({ workspaceId: ctx.workspace.id, environment: 'test' }, input.invoiceId);
  revalidatePath('/invoices', 'layout');
  return { id: invoice.id, status: invoice.status };
});

export const cancelTestInvoice = withWorkspace(InvoiceForm, async (ctx, input) => {
  const invoice = await cancelInvoice({ workspaceId: ctx.workspace.id, environment: 'test' }, input.invoiceId);
  revalidatePath('/invoices', 'layout');
  return { id: invoice.id, status: invoice.status };
});
