'use client';

import { useActionState, useState } from 'react';
import { Dialog } from '@/components/dialog';
import { SecretOnceDialog } from '@/components/secret-once-dialog';
import { buttonClass, Notice } from '@/components/ui';
import { deleteEndpoint, rollSecret, sendTest, setEnabled } from '../actions';
import { SIGNING_SECRET_WARNING } from '../secret-warning';

function ActionError({ state }: { state: { ok: false; error: string } | { ok: true } | null }) {
  return state && !state.ok ? (
    <p role="alert" className="mt-1 text-sm text-red-700">
      {state.error}
    </p>
  ) : null;
}

/**
 * Roll the secret (confirm, then the new secret once), send a test event, disable/enable, delete (confirm). The
 * confirmations and the secret are the portal's shared dialogs (focus kept inside and returned on close).
 */
export function EndpointControls({ endpointId, url, enabled }: { endpointId: string; url: string; enabled: boolean }) {
  const [rollState, rollAction, rolling] = useActionState(rollSecret, null);
  const [testState, testAction, testing] = useActionState(sendTest, null);
  const [enableState, enableAction, toggling] = useActionState(setEnabled, null);
  const [deleteState, deleteAction, deleting] = useActionState(deleteEndpoint, null);
  const [confirming, setConfirming] = useState<'roll' | 'delete' | null>(null);
  const [dismissedSecret, setDismissedSecret] = useState<string | null>(null);
  const rolled = rollState?.ok && rollState.data.secret !== dismissedSecret ? rollState.data : null;

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap gap-2">
        <form action={testAction}>
          <input type="hidden" name="endpointId" value={endpointId} />
          <button type="submit" className={buttonClass.secondary} disabled={testing}>
            {testing ? 'Sending…' : 'Send test event'}
          </button>
        </form>
        <button type="button" className={buttonClass.secondary} onClick={() => setConfirming('roll')}>
          Roll secret
        </button>
        <form action={enableAction}>
          <input type="hidden" name="endpointId" value={endpointId} />
          <input type="hidden" name="enabled" value={enabled ? 'false' : 'true'} />
          <button type="submit" className={buttonClass.secondary} disabled={toggling}>
            {enabled ? 'Disable' : 'Enable'}
          </button>
        </form>
        <button type="button" className={buttonClass.danger} onClick={() => setConfirming('delete')}>
          Delete
        </button>
      </div>
      {testState?.ok ? (
        <Notice tone="success">
          Test event <code className="font-mono">{testState.data.eventId}</code> queued: it appears in the delivery log
          below.
        </Notice>
      ) : null}
      <ActionError state={testState} />
      <ActionError state={enableState} />
      <ActionError state={rollState} />
      <ActionError state={deleteState} />

      <Dialog open={confirming === 'roll'} onClose={() => setConfirming(null)} title="Roll the signing secret?">
        <form action={rollAction} onSubmit={() => setConfirming(null)} className="space-y-4">
          <input type="hidden" name="endpointId" value={endpointId} />
          <p className="text-sm">
            A new secret is shown once. For 24 hours every delivery carries two signatures, one with the new secret and
            one with the old, so your receiver can switch without losing events; after that only the new one signs.
          </p>
          <div className="flex flex-wrap justify-end gap-2">
            <button type="button" className={buttonClass.secondary} onClick={() => setConfirming(null)}>
              Cancel
            </button>
            <button type="submit" className={buttonClass.primary} disabled={rolling}>
              Confirm roll
            </button>
          </div>
        </form>
      </Dialog>

      <Dialog open={confirming === 'delete'} onClose={() => setConfirming(null)} title="Delete this endpoint?">
        <form action={deleteAction} className="space-y-4">
          <input type="hidden" name="endpointId" value={endpointId} />
          <p className="break-words text-sm">
            Delete the endpoint <span className="font-mono">{url}</span> and its delivery log? Pending deliveries are
            dropped. This cannot be undone.
          </p>
          <div className="flex flex-wrap justify-end gap-2">
            <button type="button" className={buttonClass.secondary} onClick={() => setConfirming(null)}>
              Cancel
            </button>
            <button type="submit" className={buttonClass.danger} disabled={deleting}>
              Confirm delete
            </button>
          </div>
        </form>
      </Dialog>

      <SecretOnceDialog
        open={rolled !== null}
        title="Signing secret rolled"
        warningTitle="Copy this signing secret now"
        warning={`${SIGNING_SECRET_WARNING} The previous secret keeps signing, beside this one, for 24 hours.`}
        label="Signing secret"
        secret={rolled?.secret ?? ''}
        inputId="webhook-secret"
        inputTestId="webhook-secret"
        onDone={() => rolled && setDismissedSecret(rolled.secret)}
      />
    </div>
  );
}
