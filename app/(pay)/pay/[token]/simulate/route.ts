import { isAppError } from '@/lib/errors';
import { simulateHostedPayment } from '@/lib/invoices/hosted';
import { hostedRateLimit } from '@/lib/invoices/hosted-rate-limit';
import { hostedJson } from '../../hosted-json';

/** "Simulate payment" on a test invoice's page: the API's simulateInvoicePayment, found by token. */
export async function POST(_request: Request, { params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const wait = hostedRateLimit(token);
  if (wait !== null) return hostedJson({ error: 'rate_limited' }, 429, { 'Retry-After': String(wait) });
  try {
    const status = await simulateHostedPayment(token);
    return status ? hostedJson(status, 200) : hostedJson({ error: 'not_found' }, 404);
  } catch (error) {
    // test_mode_only (a live invoice) or invoice_not_payable (already paid, cancelled or expired).
    if (isAppError(error)) return hostedJson({ error: error.code }, 409);
    throw error;
  }
}
