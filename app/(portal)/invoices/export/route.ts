import { exportFileName, invoiceCsvChunks } from '@/lib/invoices/export';
import { parseInvoiceFilters } from '@/lib/invoices/filters';
import { requirePortalContext } from '@/lib/portal/context';
import { can, PAGE_PERMISSIONS } from '@/lib/teams/roles';

/**
 * GET /invoices/export?env=…&<the list's filters>: the CSV of every invoice the list shows under the same
 * filters (docs/portal.md, "CSV export"), streamed batch by batch. Signed-in members only (no session → the
 * sign-in page), of the session's workspace, with the permission that opens the list itself.
 */
export const dynamic = 'force-dynamic';

export async function GET(request: Request): Promise<Response> {
  const ctx = await requirePortalContext();
  if (!can(ctx.role, PAGE_PERMISSIONS['/invoices'])) {
    return new Response("Your role cannot read this workspace's invoices.\n", {
      status: 403,
      headers: { 'Content-Type': 'text/plain; charset=utf-8' },
    });
  }
  const search = new URL(request.url).searchParams;
  const environment = search.get('env') === 'live' ? 'live' : 'test';
  const filters = parseInvoiceFilters(Object.fromEntries(search));
  if (!filters.success) {
    const message = filters.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('\n');
    return new Response(`The filters are not valid:\n${message}\n`, {
      status: 400,
      headers: { 'Content-Type': 'text/plain; charset=utf-8' },
    });
  }
  const now = new Date();
  const chunks = invoiceCsvChunks({ workspaceId: ctx.workspace.id, environment }, filters.data, now);
  const encoder = new TextEncoder();
  // Pulled by the client's reading pace: one batch in memory at a time, whatever the number of rows.
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await chunks.next();
      if (next.done) controller.close();
      else controller.enqueue(encoder.encode(next.value));
    },
    async cancel() {
      await chunks.return(undefined);
    },
  });
  return new Response(body, {
    headers: {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': `attachment; filename="${exportFileName(environment, now)}"`,
      'Cache-Control': 'no-store',
      'X-Content-Type-Options': 'nosniff',
    },
  });
}
