import type { Metadata } from 'next';
import { KeyExpiry } from '@/components/expiry';
import { LocalTime } from '@/components/local-time';
import { Badge, Card, DataTable, EnvironmentBadge, Notice, PageHeader, StatusBadge, Td } from '@/components/ui';
import { keyStatus, listApiKeys } from '@/lib/keys/keys';
import { requirePage } from '@/lib/portal/context';
import { keysOfFormerMembers } from '@/lib/teams/members';
import { can, forEnvironment } from '@/lib/teams/roles';
import { CreateKeyForm } from './create-key-form';
import { RevokeKeyButton } from './revoke-key-button';
import { RollKeyButton } from './roll-key-button';

export const metadata: Metadata = { title: 'API keys' };

export default async function KeysPage() {
  const { workspace, role } = await requirePage('/keys');
  const [keys, formerMembersKeys] = await Promise.all([listApiKeys(workspace.id), keysOfFormerMembers(workspace.id)]);
  const mayChange = (environment: 'test' | 'live') => can(role, forEnvironment('keys', environment));
  const now = new Date();
  return (
    <>
      <PageHeader
        title="API keys"
        description="Keys authenticate /v1 requests in the X-API-Key header. A key's secret is shown once, when it is created."
      />
      <div className="space-y-6">
        {formerMembersKeys.length > 0 ? (
          <Notice tone="warning" title="Keys created by people who left the workspace">
            <p>
              They still work (removing a member does not break the workspace&apos;s integrations), but their creators
              saw the secrets. Roll each one and update the integration.
            </p>
            <ul className="mt-2 space-y-2" data-testid="former-member-keys">
              {formerMembersKeys.map((key) => (
                <li key={key.id} className="flex flex-wrap items-center gap-2">
                  <span>
                    <span className="font-medium">{key.label}</span> ({key.environment},{' '}
                    <code className="font-mono">{key.prefix}…</code>) by {key.createdByLabel ?? 'a former member'}
                  </span>
                  {mayChange(key.environment) ? (
                    <RollKeyButton keyId={key.id} label={key.label} available place="banner" />
                  ) : null}
                </li>
              ))}
            </ul>
          </Notice>
        ) : null}
        <Card title="Create a key">
          <CreateKeyForm liveAllowed={can(role, 'keys.manage_live')} />
        </Card>
        <Card title="Keys">
          {keys.length === 0 ? (
            <p className="text-sm text-slate-600">No keys yet.</p>
          ) : (
            <DataTable
              testId="keys-table"
              columns={[
                { label: 'Label' },
                { label: 'Status' },
                { label: 'Environment' },
                { label: 'Prefix' },
                { label: 'Scopes' },
                { label: 'Created' },
                { label: 'Created by' },
                { label: 'Last used' },
                { label: 'Actions', hidden: true },
              ]}
            >
              {keys.map((key) => (
                <tr key={key.id} data-key-id={key.id}>
                  <Td label="Label" className="break-words font-medium">
                    {key.label}
                    {key.allowedIps.length ? (
                      <span className="block text-xs font-normal text-slate-600">
                        Only from {key.allowedIps.join(', ')}
                      </span>
                    ) : null}
                  </Td>
                  <Td label="Status">
                    <StatusBadge status={keyStatus(key, now)} />
                    <KeyExpiry expiresAt={key.expiresAt} revoked={Boolean(key.revokedAt)} now={now} />
                  </Td>
                  <Td label="Environment">
                    <EnvironmentBadge environment={key.environment} />
                  </Td>
                  <Td label="Prefix" className="font-mono text-xs">
                    {key.prefix}…
                  </Td>
                  <Td label="Scopes">
                    <div className="flex flex-wrap gap-1">
                      {key.scopes.map((scope) => (
                        <Badge key={scope} tone="violet">
                          {scope}
                        </Badge>
                      ))}
                    </div>
                  </Td>
                  <Td label="Created">
                    <LocalTime value={key.createdAt} />
                  </Td>
                  <Td label="Created by" className="break-words">
                    {key.createdByLabel ?? <span className="text-slate-600">Operator or unknown</span>}
                  </Td>
                  <Td label="Last used">
                    <LocalTime value={key.lastUsedAt} fallback="Never" />
                  </Td>
                  <Td label="">
                    <div className="flex flex-wrap items-start gap-2">
                      {/* Always mounted: after a roll this row's key is retired, and the dialog with the new secret lives here. */}
                      <RollKeyButton
                        keyId={key.id}
                        label={key.label}
                        available={mayChange(key.environment) && keyStatus(key, now) === 'active' && !key.rolledToId}
                      />
                      {mayChange(key.environment) && keyStatus(key, now) === 'active' ? (
                        <RevokeKeyButton keyId={key.id} label={key.label} />
                      ) : null}
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
