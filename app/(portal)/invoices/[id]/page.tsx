import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { CopyableValue, CopyButton } from '@/components/copy-button';
import { LocalTime } from '@/components/local-time';
import { TxHash } from '@/components/tx-hash';
import { explorerTxUrl } from '@/lib/chain/networks';
import { formatCurrencyAmount, formatMoney } from '@/lib/invoices/money';
import { invoiceTimeline } from '@/lib/invoices/timeline';
import { Card, DataTable, EnvironmentBadge, Notice, PageHeader, StatusBadge, Td } from '@/components/ui';
import { isAppError } from '@/lib/errors';
import { getInvoice } from '@/lib/invoices/invoices';
import { INVOICE_ID_PATTERN, type InvoiceResource } from '@/lib/invoices/schemas';
import { formatFiat } from '@/lib/rates/format';
import { requirePage } from '@/lib/portal/context';
import { can, forEnvironment } from '@/lib/teams/roles';
import { InvoiceActions } from '../invoice-actions';
import { Timeline } from './timeline';

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

/** Priced in fiat: the price and the rate locked at creation (docs/rates.md). */
function priceRows(invoice: InvoiceResource): Array<[string, React.ReactNode]> {
  if (invoice.price_amount === null || invoice.price_currency === null) return [];
  return [
    [
      'Price',
      <span
        key="pr"
        data-testid="price"
      >{`${formatFiat(invoice.price_amount, invoice.price_currency)} ${invoice.price_currency}`}</span>,
    ],
    [
      'Locked rate',
      <span
        key="ra"
        className="font-mono text-xs"
        data-testid="rate"
      >{`${invoice.rate} ${invoice.currency} per ${invoice.price_currency}`}</span>,
    ],
    [
      'Rate source',
      <span key="rs" className="break-all font-mono text-xs" data-testid="rate-source">
        {invoice.rate_source}
      </span>,
    ],
    ['Rate observed', <LocalTime key="rt" value={invoice.rate_at} />],
  ];
}

export default async function InvoicePage({
  params,
  searchParams,
}: {
  params: Promise<{ id: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { workspace, role } = await requirePage('/invoices/[id]');
  const { id } = await params;
  const justCreated = (await searchParams).created === '1';
  if (!INVOICE_ID_PATTERN.test(id)) notFound();
  const invoice = await findInvoice(workspace.id, id);
  if (!invoice) notFound();
  const isTest = invoice.environment === 'test';
  const canChange = can(role, forEnvironment('invoices', invoice.environment));
  const timeline = await invoiceTimeline({ workspaceId: workspace.id, environment: invoice.environment }, invoice);
  const rows: Array<[string, React.ReactNode]> = [
    ['Invoice id', <CopyableValue key="i" value={invoice.id} name="invoice id" />],
    ['Status', <StatusBadge key="s" status={invoice.status} />],
    ['Environment', <EnvironmentBadge key="e" environment={invoice.environment} />],
    ['Amount', formatMoney(invoice.amount, invoice.currency)],
    ...priceRows(invoice),
    [
      'Pay amount',
      <CopyableValue key="pa" value={formatCurrencyAmount(invoice.pay_amount, invoice.currency)} name="pay amount" />,
    ],
    ['Received', formatMoney(invoice.amount_received, invoice.currency)],
    ['Exception', invoice.payment_exception ? <StatusBadge key="x" status={invoice.payment_exception} /> : '—'],
    ['Network', invoice.network],
    ['Pay address', <CopyableValue key="a" value={invoice.pay_address} name="pay address" />],
    [
      'Hosted page',
      invoice.hosted_url ? (
        <span key="h" className="inline-flex max-w-full flex-wrap items-center gap-2">
          <a
            href={invoice.hosted_url}
            className="min-w-0 break-all font-mono text-xs text-indigo-700 underline"
            data-testid="hosted-url"
          >
            {invoice.hosted_url}
          </a>
          <CopyButton value={invoice.hosted_url} name="hosted link" size="sm" />
        </span>
      ) : (
        '—'
      ),
    ],
    ['Payment URI', <CopyableValue key="u" value={invoice.payment_uri} name="payment URI" />],
    [
      'Redirect URL',
      invoice.redirect_url ? (
        <span key="r" className="break-all font-mono text-xs">
          {invoice.redirect_url}
        </span>
      ) : (
        '—'
      ),
    ],
    [
      'Description',
      <span key="d" className="break-words">
        {invoice.description ?? '—'}
      </span>,
    ],
    ['Order id', invoice.order_id ? <CopyableValue key="o" value={invoice.order_id} name="order id" /> : '—'],
    ['Created', <LocalTime key="c" value={invoice.created_at} />],
    ['Expires', <LocalTime key="x" value={invoice.expires_at} />],
    ['Paid', <LocalTime key="p" value={invoice.paid_at} />],
    ['Cancelled', <LocalTime key="k" value={invoice.cancelled_at} />],
    [
      'Payment',
      invoice.payment ? (
        <span key="p" className="inline-flex max-w-full flex-wrap items-center gap-2">
          <span className="whitespace-nowrap">{formatMoney(invoice.payment.amount, invoice.currency)}</span>
          <TxHash
            hash={invoice.payment.tx_hash}
            // A simulated payment never reached a chain: nothing to look up.
            explorerUrl={invoice.payment.simulated ? null : explorerTxUrl(invoice.network, invoice.payment.tx_hash)}
            network={invoice.network}
            note={invoice.payment.simulated ? '(simulated)' : undefined}
          />
        </span>
      ) : (
        '—'
      ),
    ],
  ];
  return (
    <>
      <PageHeader title="Invoice" description={<span className="break-all font-mono">{invoice.id}</span>}>
        <Link href={`/invoices?env=${invoice.environment}`} className="text-sm font-semibold text-indigo-700 underline">
          Back to {invoice.environment} invoices
        </Link>
      </PageHeader>
      <div className="space-y-6">
        {justCreated ? (
          <Notice tone="success">Invoice created. Send the payer the amount, network and pay address below.</Notice>
        ) : null}
        {isTest ? (
          invoice.status === 'paid' ? (
            <Notice tone="info" title="Test invoice — paid by a simulated payment">
              No funds moved: test invoices are paid through the simulator, never on chain.
            </Notice>
          ) : (
            <Notice tone="warning" title="Test invoice — do not send funds">
              Its pay address is the documented test address, which belongs to nobody: real funds sent to it are lost.
              {invoice.status === 'pending' && canChange ? ' Pay it with “Simulate payment” below.' : ''}
            </Notice>
          )
        ) : null}
        <Card>
          <dl
            className="grid grid-cols-1 gap-x-6 gap-y-2 text-sm sm:grid-cols-[10rem_minmax(0,1fr)]"
            data-testid="invoice-detail"
          >
            {rows.map(([label, value]) => (
              <div key={label} className="contents">
                <dt className="text-slate-600">{label}</dt>
                <dd data-field={label} className="min-w-0">
                  {value}
                </dd>
              </div>
            ))}
          </dl>
          {Object.keys(invoice.metadata).length > 0 ? (
            <pre className="mt-4 overflow-x-auto rounded bg-slate-50 p-3 text-xs">
              {JSON.stringify(invoice.metadata, null, 2)}
            </pre>
          ) : null}
        </Card>
        <Card title="Payments">
          {invoice.payments.length === 0 ? (
            <p className="text-sm text-slate-600">
              {invoice.environment === 'test'
                ? 'Test invoices are paid through the simulator, never on chain.'
                : 'No transfer to this invoice has been seen on chain yet.'}
            </p>
          ) : (
            <DataTable columns={PAYMENT_COLUMNS} testId="invoice-payments">
              {invoice.payments.map((payment) => (
                <tr key={payment.id} data-payment={payment.id}>
                  <Td label="Transaction">
                    <TxHash
                      hash={payment.tx_hash}
                      explorerUrl={explorerTxUrl(payment.network, payment.tx_hash)}
                      network={payment.network}
                    />
                  </Td>
                  <Td label="Amount" className="whitespace-nowrap tabular-nums">
                    {formatMoney(payment.amount, payment.currency)}
                  </Td>
                  <Td label="Status">
                    <StatusBadge status={payment.status} />
                  </Td>
                  <td data-label="Confirmations" className="px-3 py-2 text-right" data-field="confirmations">
                    {payment.confirmations}
                  </td>
                  <Td label="Block" className="text-right">
                    {payment.block_number}
                  </Td>
                  <Td label="Detected" className="whitespace-nowrap">
                    <LocalTime value={payment.detected_at} />
                  </Td>
                </tr>
              ))}
            </DataTable>
          )}
        </Card>
        <Card title="Timeline">
          <Timeline
            entries={timeline}
            canOpenWebhooks={can(role, 'webhooks.read')}
            explorerUrls={Object.fromEntries(invoice.payments.map((p) => [p.id, explorerTxUrl(p.network, p.tx_hash)]))}
          />
        </Card>
        <Card title="Actions">
          {!canChange ? (
            <p className="text-sm text-slate-600">
              Your role can read this invoice; changing {invoice.environment} invoices is for{' '}
              {invoice.environment === 'live' ? 'Owners and Admins' : 'Owners, Admins and Developers'}.
            </p>
          ) : invoice.status === 'pending' ? (
            <InvoiceActions invoiceId={invoice.id} environment={invoice.environment} />
          ) : (
            <p className="text-sm text-slate-600">
              Only pending invoices can be {isTest ? 'paid or cancelled' : 'cancelled'}; this one is {invoice.status}.
            </p>
          )}
        </Card>
      </div>
    </>
  );
}
