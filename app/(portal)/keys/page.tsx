import type { Metadata } from 'next';
import { KeyExpiry } from '@/components/expiry';
import { LocalTime } from '@/components/local-time';
import { Badge, Card, DataTable, EnvironmentBadge, PageHeader, StatusBadge, Td } from '@/components/ui';
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
            <DataTable testId="keys-table" columns={[{ label: 'Label' }, { label: 'Status' }, { label: 'Environment' }, { label: 'Prefix' }, { label: 'Scopes' }, { label: 'Created' }, { label: 'Last used' }, { label: 'Actions', hidden: true }]}>
              {keys.map((key) => (
                <tr key={key.id} data-key-id={key.id}>
                  <Td label="Label" className="break-words font-medium">
                    {key.label}
                    {key.allowedIps.length ? <span className="block text-xs font-normal text-slate-600">Only from {key.allowedIps.join(', ')}</span> : null}
                  </Td>
                  <Td label="Status">
                    <StatusBadge status={keyStatus(key, now)} />
                    <KeyExpiry expiresAt={key.expiresAt} revoked={Boolean(key.revokedAt)} now={now} />
                  </Td>
                  <Td label="Environment"><EnvironmentBadge environment={key.environment} /></Td>
                  <Td label="Prefix" className="font-mono text-xs">{key.prefix}…</Td>
                  <Td label="Scopes">
                    <div className="flex flex-wrap gap-1">
                      {key.scopes.map((scope) => (
                        <Badge key={scope} tone="violet">{scope}</Badge>
                      ))}
                    </div>
                  </Td>
                  <Td label="Created"><LocalTime value={key.createdAt} /></Td>
                  <Td label="Last used"><LocalTime value={key.lastUsedAt} fallback="Never" /></Td>
                  <Td label="">
                    <div className="flex flex-wrap items-start gap-2">
                      {/* Always mounted: after a roll this row's key is retired, and the dialog with the new secret lives here. */}
                      <RollKeyButton keyId={key.id} label={key.label} available={keyStatus(key, now) === 'active' && !key.rolledToId} />
                      {keyStatus(key, now) === 'active' ? <RevokeKeyButton keyId={key.id} label={key.label} /> : null}
                    </div>
                  </Td>
                </tr>
              ))}
            </DataTable>
          )}
        </Card>
      </div>
    </>
  );
}
