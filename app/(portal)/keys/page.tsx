import type { Metadata } from 'next';
import { Badge, Card, DataTable, EnvironmentBadge, formatDate, PageHeader, StatusBadge } from '@/components/ui';
import { KeyExpiry } from '@/components/expiry';
import { keyStatus, listApiKeys } from '@/lib/keys/keys';
import { requirePortalContext } from '@/lib/portal/context';
import { CreateKeyForm } from './create-key-form';
import { RevokeKeyButton } from './revoke-key-button';
import { RollKeyButton } from './roll-key-button';

export const metadata: Metadata = { title: 'API keys' };

export default async function KeysPage() {
  const { workspace } = await requirePortalContext();
  const keys = await listApiKeys(workspace.id);
  const now = new Date();
  return (
    <>
      <PageHeader title="API keys" description="Keys authenticate /v1 requests in the X-API-Key header. A key's secret is shown once, when it is created." />
      <div className="space-y-6">
        <Card title="Create a key">
          <CreateKeyForm />
        </Card>
        <Card title="Keys">
          {keys.length === 0 ? (
            <p className="text-sm text-slate-600">No keys yet.</p>
          ) : (
            <DataTable testId="keys-table" columns={[{ label: 'Label' }, { label: 'Prefix' }, { label: 'Environment' }, { label: 'Scopes' }, { label: 'Created' }, { label: 'Last used' }, { label: 'Status' }, { label: 'Actions', hidden: true }]}>
              {keys.map((key) => (
                <tr key={key.id} data-key-id={key.id}>
                  <td className="px-3 py-2 font-medium">
                    {key.label}
                    {key.allowedIps.length ? <span className="block text-xs font-normal text-slate-600">Only from {key.allowedIps.join(', ')}</span> : null}
                  </td>
                  <td className="px-3 py-2 font-mono text-xs">{key.prefix}…</td>
                  <td className="px-3 py-2"><EnvironmentBadge environment={key.environment} /></td>
                  <td className="px-3 py-2">
                    <div className="flex flex-wrap gap-1">
                      {key.scopes.map((scope) => (
                        <Badge key={scope} tone="violet">{scope}</Badge>
                      ))}
                    </div>
                  </td>
                  <td className="whitespace-nowrap px-3 py-2">{formatDate(key.createdAt)}</td>
                  <td className="whitespace-nowrap px-3 py-2">{key.lastUsedAt ? formatDate(key.lastUsedAt) : 'Never'}</td>
                  <td className="px-3 py-2">
                    <StatusBadge status={keyStatus(key, now)} />
                    <KeyExpiry expiresAt={key.expiresAt} revoked={Boolean(key.revokedAt)} now={now} />
                  </td>
                  <td className="px-3 py-2">
                    <div className="flex flex-wrap items-start gap-2">
                      {/* Always mounted: after a roll this row's key is retired, and the dialog with the new secret lives here. */}
                      <RollKeyButton keyId={key.id} label={key.label} available={keyStatus(key, now) === 'active' && !key.rolledToId} />
                      {keyStatus(key, now) === 'active' ? <RevokeKeyButton keyId={key.id} label={key.label} /> : null}
                    </div>
                  </td>
                </tr>
              ))}
            </DataTable>
          )}
        </Card>
      </div>
    </>
  );
}
