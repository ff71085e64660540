import { hostedStatus } from '@/lib/invoices/hosted';
import { clientAddress } from '@/lib/http/client-address';
import { hostedRateLimit } from '@/lib/invoices/hosted-rate-limit';
import { hostedJson } from '../../hosted-json';

/** The page's live status (polled every 2 s): status fields only; limited per address and per token (lib/invoices/hosted-rate-limit.ts). */
export async function GET(request: Request, { params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const limit = await hostedRateLimit(token, clientAddress(request.headers.get('x-forwarded-for')));
  if (limit.outcome === 'malformed') return hostedJson({ error: 'not_found' }, 404);
  if (limit.outcome === 'limited')
    return hostedJson({ error: 'rate_limited' }, 429, { 'Retry-After': String(limit.retryAfter) });
  const status = await hostedStatus(token);
  return status ? hostedJson(status, 200) : hostedJson({ error: 'not_found' }, 404);
}
