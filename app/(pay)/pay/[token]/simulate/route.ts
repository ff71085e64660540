import { isAppError } from '@/lib/errors';
import { simulateHostedPayment } from '@/lib/invoices/hosted';
import { clientAddress } from '@/lib/http/client-address';
import { hostedRateLimit } from '@/lib/invoices/hosted-rate-limit';
import { hostedJson } from '../../hosted-json';

/** "Simulate payment" on a test invoice's page: the API's simulateInvoicePayment, found by token. */
export async function POST(request: Request, { params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const limit = await hostedRateLimit(token, clientAddress(request.headers.get('x-forwarded-for')));
  if (limit.outcome === 'malformed') return hostedJson({ error: 'not_found' }, 404);
  if (limit.outcome === 'limited')
    return hostedJson({ error: 'rate_limited' }, 429, { 'Retry-After': String(limit.retryAfter) });
  try {
    const status = await simulateHostedPayment(token);
    return status ? hostedJson(status, 200) : hostedJson({ error: 'not_found' }, 404);
  } catch (error) {
    // test_mode_only (a live invoice) or invoice_not_payable (already paid, cancelled or expired).
    if (isAppError(error)) return hostedJson({ error: error.code }, 409);
    throw error;
  }
}
