import type { Metadata } from 'next';
import { LocalTime } from '@/components/local-time';
import Link from 'next/link';
import { buttonClass, Card, DataTable, PageHeader, Td } from '@/components/ui';
import { auditActionLabel } from '@/lib/audit/actions';
import { listAudit } from '@/lib/audit/audit';
import { describeAuditTargets } from '@/lib/audit/targets';
import { requirePage } from '@/lib/portal/context';

export const metadata: Metadata = { title: 'Audit log' };

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

/** Details the described target already shows: a key's label and prefix, an endpoint's URL. */
function inTarget(target: string | null): readonly string[] {
  if (/^key \d+$/.test(target ?? '')) return ['label', 'prefix'];
  if (/^webhook endpoint /.test(target ?? '')) return ['url'];
  return [];
}

/** The row's details as "name: value" pairs, without what the target column says already. */
function describe(details: unknown, target: string | null): string {
  if (!details || typeof details !== 'object') return '';
  const shown = (name: string) => !inTarget(target).includes(name);
  return Object.entries(details as Record<string, unknown>)
    .filter(([name]) => shown(name))
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
  const targets = await describeAuditTargets(workspace.id, rows);
  return (
    <>
      <PageHeader
        title="Audit log"
        description="Sign-ins and every change to keys, wallets, the plan and webhooks: who, what, when and from which address. Entries are never changed or deleted."
      />
      <Card>
        {rows.length === 0 ? (
          <p className="text-sm text-slate-600">Nothing recorded yet.</p>
        ) : (
          <DataTable
            testId="audit-log"
            columns={[
              { label: 'Time' },
              { label: 'Action' },
              { label: 'Who' },
              { label: 'Address' },
              { label: 'What' },
            ]}
          >
            {rows.map((row, index) => (
              <tr key={row.id} data-action={row.action}>
                <Td label="Time">
                  <LocalTime value={row.createdAt} />
                </Td>
                <Td label="Action" className="font-medium">
                  {auditActionLabel(row.action)}
                </Td>
                <Td label="Who" className="break-words">
                  {row.actorLabel}
                </Td>
                <Td label="Address" className="whitespace-nowrap font-mono text-xs">
                  {row.ip ?? '—'}
                </Td>
                <Td label="What" className="break-words text-slate-700">
                  <div className="min-w-0">
                    {targets[index] ? <span className="font-medium">{targets[index]}</span> : null}
                    {describe(row.details, row.target) ? (
                      <span className="block text-xs text-slate-600">{describe(row.details, row.target)}</span>
                    ) : null}
                  </div>
                </Td>
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
