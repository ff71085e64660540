'use client';

import { ConfirmAction } from '@/components/confirm-action';
import { revokeKey } from './actions';

/** Revoke, after a confirmation dialog; the outcome is announced and the list refreshed (also after a conflict). */
export function RevokeKeyButton({ keyId, label }: { keyId: number; label: string }) {
  return (
    <ConfirmAction
      action={revokeKey}
      fields={{ keyId: String(keyId) }}
      trigger="Revoke"
      triggerLabel={`Revoke key ${label}`}
      title={`Revoke “${label}”?`}
      confirm="Revoke key"
      success={(data) => `Key “${data.label}” revoked: requests with it now fail.`}
    >
      Requests with this key fail at once. This cannot be undone: create a new key to replace it.
    </ConfirmAction>
  );
}
