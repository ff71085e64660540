import type { Metadata } from 'next';
import { LocalTime } from '@/components/local-time';
import Link from 'next/link';
import { Card, DataTable, PageHeader } from '@/components/ui';
import { listUnmatchedPayments } from '@/lib/chain/unmatched';
import { requirePage } from '@/lib/portal/context';
import { can } from '@/lib/teams/roles';
import { AttachForm } from './attach-form';

export const metadata: Metadata = { title: 'Unmatched payments' };

const COLUMNS = [
  { label: 'Transaction' },
  { label: 'Amount' },
  { label: 'From' },
  { label: 'Confirmed' },
  { label: 'Attach' },
];

/** Confirmed transfers to this workspace's wallets that matched no invoice (wrong amount, too late, a repeat). */
export default async function UnmatchedPaymentsPage() {
  const { workspace, role } = await requirePage('/invoices/unmatched');
  const mayAttach = can(role, 'payments.attach');
  const payments = await listUnmatchedPayments(workspace.id);
  return (
    <>
      <PageHeader
        title="Unmatched payments"
        description="Transfers to your wallets that matched no live invoice: a different amount than pay_amount, after the monitoring window, or a second payment. Attach one to the invoice it was meant for: paid when the amount received reaches the invoice amount (overpaid above pay_amount), otherwise it stays pending as underpaid."
      >
        <Link href="/invoices?env=live" className="text-sm font-semibold text-indigo-700 underline">
          Back to live invoices
        </Link>
      </PageHeader>
      <Card>
        {payments.length === 0 ? (
          <p className="text-sm text-slate-600">No unmatched payments.</p>
        ) : (
          <DataTable columns={COLUMNS} testId="unmatched-payments">
            {payments.map((payment) => (
              <tr key={payment.id} data-payment={payment.id} className="align-top">
                <td className="px-3 py-2">
                  <code className="break-all font-mono text-xs">{payment.txHash}</code>
                  <span className="block text-xs text-slate-600">
                    {payment.network}, block {payment.blockNumber}
                  </span>
                </td>
                <td className="px-3 py-2 whitespace-nowrap">{`${payment.amount} ${payment.currency}`}</td>
                <td className="px-3 py-2">
                  <code className="break-all font-mono text-xs">{payment.from}</code>
                </td>
                <td className="px-3 py-2 whitespace-nowrap">
                  <LocalTime value={payment.confirmedAt} />
                </td>
                <td className="px-3 py-2">{mayAttach ? <AttachForm paymentId={payment.id} /> : null}</td>
              </tr>
            ))}
          </DataTable>
        )}
      </Card>
    </>
  );
}
