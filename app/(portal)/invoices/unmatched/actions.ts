'use server';

import { revalidatePath } from 'next/cache';
import { z } from 'zod';
import { attachPayment } from '@/lib/chain/unmatched';
import { INVOICE_ID_PATTERN } from '@/lib/invoices/schemas';
import { withWorkspace } from '@/lib/portal/action';

// Both ids come from the form: attachPayment only finds a payment sent to this workspace's wallets and a live
// invoice of this workspace, so any other id is "not found".
const AttachForm = z.object({
  paymentId: z.string().regex(/^pay_[0-9A-Za-z]{24}$/, 'Unknown payment'),
  invoiceId: z.string().trim().regex(INVOICE_ID_PATTERN, 'An invoice id is inv_ followed by 24 letters and digits'),
});

export const attachUnmatchedPayment = withWorkspace(
  { permission: 'payments.attach' },
  AttachForm,
  async (ctx, input) => {
    const result = await attachPayment(ctx.workspace.id, input.paymentId, input.invoiceId);
    revalidatePath('/invoices', 'layout');
    return { invoiceId: input.invoiceId, ...result };
  },
);
