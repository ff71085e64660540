import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { CopyButton } from '@/components/copy-button';
import { Card, DataTable, EnvironmentBadge, formatDate, PageHeader, StatusBadge } from '@/components/ui';
import { isAppError } from '@/lib/errors';
import { getInvoice } from '@/lib/invoices/invoices';
import { INVOICE_ID_PATTERN } from '@/lib/invoices/schemas';
import { requirePortalContext } from '@/lib/portal/context';
import { InvoiceActions } from '../invoice-actions';

export const metadata: Metadata = { title: 'Invoice' };

const PAYMENT_COLUMNS = [
  { label: 'Transaction' },
  { label: 'Amount' },
  { label: 'Status' },
  { label: 'Confirmations', align: 'right' as const },
  { label: 'Block', align: 'right' as const },
  { label: 'Detected' },
];

/** Looks the id up in this workspace only (test, then live); anything else is a 404. */
async function findInvoice(workspaceId: string, id: string) {
  for (const environment of ['test', 'live'] as const) {
    try {
      return await getInvoice({ workspaceId, environment }, id);
    } catch (error) {
      if (!isAppError(error) || error.code !== 'invoice_not_found') throw error;
    }
  }
  return null;
}

export default async function InvoicePage({ params }: { params: Promise<{ id: string }> }) {
  const { workspace } = await requirePortalContext();
  const { id } = await params;
  if (!INVOICE_ID_PATTERN.test(id)) notFound();
  const invoice = await findInvoice(workspace.id, id);
  if (!invoice) notFound();
  const rows: Array<[string, React.ReactNode]> = [
    ['Status', <StatusBadge key="s" status={invoice.status} />],
    ['Environment', <EnvironmentBadge key="e" environment={invoice.environment} />],
    ['Amount', `${invoice.amount} ${invoice.currency}`],
    ['Pay amount', <code key="pa" className="font-mono text-xs">{`${invoice.pay_amount} ${invoice.currency}`}</code>],
    ['Received', `${invoice.amount_received} ${invoice.currency}`],
    ['Exception', invoice.payment_exception ? <StatusBadge key="x" status={invoice.payment_exception} /> : '—'],
    ['Network', invoice.network],
    [
      'Pay address',
      <span key="a">
        <code className="break-all font-mono text-xs">{invoice.pay_address}</code>
        {invoice.environment === 'test' ? <span className="block text-xs text-amber-800">Test invoice — do not send funds.</span> : null}
      </span>,
    ],
    [
      'Hosted page',
      invoice.hosted_url ? (
        <span key="h" className="flex flex-wrap items-center gap-2">
          <a href={invoice.hosted_url} className="break-all font-mono text-xs text-indigo-700 underline" data-testid="hosted-url">
            {invoice.hosted_url}
          </a>
          <CopyButton value={invoice.hosted_url} label="Copy link" />
        </span>
      ) : (
        '—'
      ),
    ],
    ['Payment URI', <code key="u" className="break-all font-mono text-xs">{invoice.payment_uri}</code>],
    ['Redirect URL', invoice.redirect_url ? <code key="r" className="break-all font-mono text-xs">{invoice.redirect_url}</code> : '—'],
    ['Description', invoice.description ?? '—'],
    ['Order id', invoice.order_id ?? '—'],
    ['Created', formatDate(invoice.created_at)],
    ['Expires', formatDate(invoice.expires_at)],
    ['Paid', formatDate(invoice.paid_at)],
    ['Cancelled', formatDate(invoice.cancelled_at)],
    ['Payment', invoice.payment ? <code key="p" className="break-all font-mono text-xs">{`${invoice.payment.amount} · ${invoice.payment.tx_hash}${invoice.payment.simulated ? ' (simulated)' : ''}`}</code> : '—'],
  ];
  return (
    <>
      <PageHeader title={`Invoice ${invoice.id}`}>
        <Link href={`/invoices?env=${invoice.environment}`} className="text-sm font-semibold text-indigo-700 underline">
          Back to {invoice.environment} invoices
        </Link>
      </PageHeader>
      <div className="space-y-6">
        <Card>
          <dl className="grid grid-cols-1 gap-x-6 gap-y-2 text-sm sm:grid-cols-[10rem_1fr]" data-testid="invoice-detail">
            {rows.map(([label, value]) => (
              <div key={label} className="contents">
                <dt className="text-slate-600">{label}</dt>
                <dd data-field={label}>{value}</dd>
              </div>
            ))}
          </dl>
          {Object.keys(invoice.metadata).length > 0 ? (
            <pre className="mt-4 overflow-x-auto rounded bg-slate-50 p-3 text-xs">{JSON.stringify(invoice.metadata, null, 2)}</pre>
          ) : null}
        </Card>
        <Card title="Payments">
          {invoice.payments.length === 0 ? (
            <p className="text-sm text-slate-600">
              {invoice.environment === 'test' ? 'Test invoices are paid through the simulator, never on chain.' : 'No transfer to this invoice has been seen on chain yet.'}
            </p>
          ) : (
            <DataTable columns={PAYMENT_COLUMNS} testId="invoice-payments">
              {invoice.payments.map((payment) => (
                <tr key={payment.id} data-payment={payment.id}>
                  <td className="px-3 py-2">
                    <code className="break-all font-mono text-xs">{payment.tx_hash}</code>
                  </td>
                  <td className="px-3 py-2 whitespace-nowrap">{`${payment.amount} ${payment.currency}`}</td>
                  <td className="px-3 py-2">
                    <StatusBadge status={payment.status} />
                  </td>
                  <td className="px-3 py-2 text-right" data-field="confirmations">{payment.confirmations}</td>
                  <td className="px-3 py-2 text-right">{payment.block_number}</td>
                  <td className="px-3 py-2 whitespace-nowrap">{formatDate(payment.detected_at)}</td>
                </tr>
              ))}
            </DataTable>
          )}
        </Card>
        {invoice.environment === 'test' ? (
          <Card title="Test actions">
            {invoice.status === 'pending' ? (
              <InvoiceActions invoiceId={invoice.id} />
            ) : (
              <p className="text-sm text-slate-600">Only pending invoices can be paid or cancelled; this one is {invoice.status}.</p>
            )}
          </Card>
        ) : null}
      </div>
    </>
  );
}
