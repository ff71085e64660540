'use client';

import { useActionState, useState } from 'react';
import { SecretOnceDialog } from '@/components/secret-once-dialog';
import { LocalTime } from '@/components/local-time';
import { useStepUp } from '@/components/step-up';
import { buttonClass, inputClass } from '@/components/ui';
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
export function RollKeyButton({
  keyId,
  label,
  available,
  place = 'row',
}: {
  keyId: number;
  label: string;
  available: boolean;
  place?: 'row' | 'banner';
}) {
  // Rolling a live key asks the user to confirm it is them (step-up) when the server says so.
  const [state, action, pending] = useActionState(useStepUp(rollKey), null);
  const [open, setOpen] = useState(false);
  const [dismissed, setDismissed] = useState<number | null>(null);
  const rolled = state?.ok && state.data.key.id !== dismissed ? state.data : null;

  return (
    <>
      {!available ? null : !open ? (
        <button
          type="button"
          className={buttonClass.secondary}
          onClick={() => setOpen(true)}
          aria-label={`Roll key ${label}`}
        >
          Roll
        </button>
      ) : (
        <form
          action={action}
          onSubmit={() => setOpen(false)}
          className="flex flex-wrap items-center gap-2"
          aria-label={`Roll ${label}`}
        >
          <input type="hidden" name="keyId" value={keyId} />
          <label htmlFor={`roll-grace-${place}-${keyId}`} className="text-sm">
            Old secret stops working
          </label>
          <select
            id={`roll-grace-${place}-${keyId}`}
            name="grace"
            defaultValue={3600}
            className={`${inputClass} w-auto`}
          >
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

      <SecretOnceDialog
        open={rolled !== null}
        title={rolled ? `Key rolled: ${rolled.key.label}` : ''}
        warningTitle="Copy the new secret now"
        warning={
          <>
            This is the only time it is shown.{' '}
            {rolled?.oldWorksUntil ? (
              <>
                The old secret keeps working until <LocalTime value={rolled.oldWorksUntil} />.
              </>
            ) : (
              'The old secret has stopped working.'
            )}
          </>
        }
        label="New secret"
        secret={rolled?.secret ?? ''}
        inputId={`rolled-key-secret-${keyId}`}
        inputTestId="rolled-key-secret"
        onDone={() => rolled && setDismissed(rolled.key.id)}
      />
    </>
  );
}
