import type { Metadata } from 'next';
import Link from 'next/link';
import { Card, PageHeader } from '@/components/ui';
import { requirePage } from '@/lib/portal/context';
import { can } from '@/lib/teams/roles';
import { NewInvoiceForm } from './new-invoice-form';

export const metadata: Metadata = { title: 'New invoice' };

export default async function NewInvoicePage() {
  const { role } = await requirePage('/invoices/new');
  return (
    <>
      <PageHeader
        title="New invoice"
        description="Create an invoice without writing code: the same rules as POST /v1/invoices, on every plan. Send the payer the invoice's payment details."
      >
        <Link href="/invoices" className="text-sm font-semibold text-indigo-700 underline">
          Back to invoices
        </Link>
      </PageHeader>
      <Card>
        <NewInvoiceForm liveAllowed={can(role, 'invoices.write_live')} />
      </Card>
    </>
  );
}
