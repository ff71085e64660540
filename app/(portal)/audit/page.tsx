import type { Metadata } from 'next';
import Link from 'next/link';
import { buttonClass, Card, DataTable, formatDate, PageHeader } from '@/components/ui';
import { auditActionLabel } from '@/lib/audit/actions';
import { listAudit } from '@/lib/audit/audit';
import { requirePage } from '@/lib/portal/context';

export const metadata: Metadata = { title: 'Audit log' };

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

function describe(details: unknown): string {
  if (!details || typeof details !== 'object') return '';
  return Object.entries(details as Record<string, unknown>)
    .filter(([, value]) => value !== null && value !== '' && !(Array.isArray(value) && value.length === 0))
    .map(([name, value]) => `${name.replace(/_/g, ' ')}: ${Array.isArray(value) ? value.join(', ') : String(value)}`)
    .join(' · ');
}

/** Who changed what in this workspace, and when, newest first. Append-only: nothing here can be edited. */
export default async function AuditLogPage({ searchParams }: { searchParams: SearchParams }) {
  const { workspace } = await requirePage('/audit');
  const params = await searchParams;
  const before = typeof params.before === 'string' ? params.before : null;
  const rows = await listAudit(workspace.id, { limit: 50, before });
  return (
    <>
      <PageHeader title="Audit log" description="Sign-ins and every change to keys, wallets, the plan and webhooks: who, what, when and from which address. Entries are never changed or deleted." />
      <Card>
        {rows.length === 0 ? (
          <p className="text-sm text-slate-600">Nothing recorded yet.</p>
        ) : (
          <DataTable testId="audit-log" columns={[{ label: 'Time' }, { label: 'Action' }, { label: 'Who' }, { label: 'Address' }, { label: 'What' }]}>
            {rows.map((row) => (
              <tr key={row.id} data-action={row.action}>
                <td className="whitespace-nowrap px-3 py-2">{formatDate(row.createdAt)}</td>
                <td className="whitespace-nowrap px-3 py-2 font-medium">{auditActionLabel(row.action)}</td>
                <td className="px-3 py-2">{row.actorLabel}</td>
                <td className="whitespace-nowrap px-3 py-2 font-mono text-xs">{row.ip ?? '—'}</td>
                <td className="px-3 py-2 text-slate-700">
                  {row.target ? <span className="font-medium">{row.target}</span> : null}
                  {describe(row.details) ? <span className="block text-xs text-slate-600">{describe(row.details)}</span> : null}
                </td>
              </tr>
            ))}
          </DataTable>
        )}
        {rows.length === 50 ? (
          <div className="mt-4">
            <Link href={`/audit?before=${rows.at(-1)?.id}`} className={buttonClass.secondary}>
              Older entries
            </Link>
          </div>
        ) : null}
      </Card>
    </>
  );
}
