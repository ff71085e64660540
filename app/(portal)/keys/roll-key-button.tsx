'use client';

import { useActionState, useState } from 'react';
import { CopyButton } from '@/components/copy-button';
import { useStepUp } from '@/components/step-up';
import { buttonClass, inputClass, Notice } from '@/components/ui';
import { rollKey } from './actions';

const GRACE_OPTIONS = [
  { value: 0, label: 'Now' },
  { value: 3600, label: 'In 1 hour' },
  { value: 86_400, label: 'In 24 hours' },
  { value: 604_800, label: 'In 7 days' },
] as const;

/**
 * Roll: pick when the old secret stops working, then see the new secret once. Both secrets work until then,
 * so a deployment can switch without downtime.
 */
export function RollKeyButton({ keyId, label, available }: { keyId: number; label: string; available: boolean }) {
  // Rolling a live key asks the user to confirm it is them (step-up) when the server says so.
  const [state, action, pending] = useActionState(useStepUp(rollKey), null);
  const [open, setOpen] = useState(false);
  const [dismissed, setDismissed] = useState<number | null>(null);
  const rolled = state?.ok && state.data.key.id !== dismissed ? state.data : null;

  return (
    <>
      {!available ? null : !open ? (
        <button type="button" className={buttonClass.secondary} onClick={() => setOpen(true)} aria-label={`Roll key ${label}`}>
          Roll
        </button>
      ) : (
        <form action={action} onSubmit={() => setOpen(false)} className="flex flex-wrap items-center gap-2" aria-label={`Roll ${label}`}>
          <input type="hidden" name="keyId" value={keyId} />
          <label htmlFor={`roll-grace-${keyId}`} className="text-sm">
            Old secret stops working
          </label>
          <select id={`roll-grace-${keyId}`} name="grace" defaultValue={3600} className={`${inputClass} w-auto`}>
            {GRACE_OPTIONS.map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))}
          </select>
          <button type="submit" className={buttonClass.primary} disabled={pending}>
            Roll key
          </button>
          <button type="button" className={buttonClass.secondary} onClick={() => setOpen(false)}>
            Cancel
          </button>
        </form>
      )}
      {state && !state.ok ? (
        <p role="alert" className="mt-1 text-sm text-red-700">
          {state.error}
        </p>
      ) : null}

      {rolled ? (
        <div className="fixed inset-0 z-50 flex items-center justify-center bg-slate-900/50 p-4">
          <div role="dialog" aria-modal="true" aria-labelledby="rolled-key-title" aria-describedby="rolled-key-warning" className="w-full max-w-lg rounded-lg bg-white p-6 shadow-xl">
            <h2 id="rolled-key-title" className="text-lg font-semibold">
              Key rolled: {rolled.key.label}
            </h2>
            <div id="rolled-key-warning" className="mt-3">
              <Notice tone="warning" title="Copy the new secret now">
                This is the only time it is shown.{' '}
                {rolled.oldExpiresAt && new Date(rolled.oldExpiresAt).getTime() > Date.now()
                  ? `The old secret keeps working until ${rolled.oldExpiresAt.slice(0, 16).replace('T', ' ')} UTC.`
                  : 'The old secret has stopped working.'}
              </Notice>
            </div>
            <label htmlFor="rolled-key-secret" className="mt-4 block text-sm font-medium">
              New secret
            </label>
            <div className="mt-1 flex flex-wrap gap-2">
              <input
                id="rolled-key-secret"
                readOnly
                value={rolled.secret}
                autoFocus
                onFocus={(e) => e.currentTarget.select()}
                className={`${inputClass} min-w-0 flex-1 font-mono`}
                data-testid="rolled-key-secret"
              />
              <CopyButton value={rolled.secret} label="Copy secret" />
            </div>
            <div className="mt-6 flex justify-end">
              <button type="button" className={buttonClass.primary} onClick={() => setDismissed(rolled.key.id)}>
                I have saved the secret
              </button>
            </div>
          </div>
        </div>
      ) : null}
    </>
  );
}
