import { hostedStatus } from '@/lib/invoices/hosted';
import { hostedRateLimit } from '@/lib/invoices/hosted-rate-limit';
import { hostedJson } from '../../hosted-json';

/** The page's live status (polled every 2 s): status fields only, rate-limited per token. */
export async function GET(_request: Request, { params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const wait = hostedRateLimit(token);
  if (wait !== null) return hostedJson({ error: 'rate_limited' }, 429, { 'Retry-After': String(wait) });
  const status = await hostedStatus(token);
  return status ? hostedJson(status, 200) : hostedJson({ error: 'not_found' }, 404);
}
