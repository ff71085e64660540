'use client';

import { useEffect } from 'react';
import { ConfirmAction } from '@/components/confirm-action';
import { useAnnounce } from '@/components/status';
import { useStepUp } from '@/components/step-up';
import { buttonClass, FieldError, inputClass } from '@/components/ui';
import { useKeptForm } from '@/components/use-kept-form';
import { deleteWallet, saveWallet } from './actions';

/**
 * One network's wallet. A refused address stays in the field (useKeptForm) beside its error, so the typo is visible.
 * Saving and removing ask the user to confirm it is them (step-up) when the server says so.
 */
export function WalletForm({ network, title, hint, address }: { network: string; title: string; hint: string; address: string | null }) {
  const [state, onSubmit, pending] = useKeptForm(useStepUp(saveWallet));
  const remove = useStepUp(deleteWallet);
  const announce = useAnnounce();
  const inputId = `wallet-${network}`;
  const error = state && !state.ok ? (state.fieldErrors?.address ?? state.error) : undefined;
  useEffect(() => {
    if (state?.ok) announce('success', `${title} wallet saved.`);
  }, [state, announce, title]);
  return (
    <div className="min-w-0 rounded-lg p-4 ring-1 ring-slate-200">
      <form onSubmit={onSubmit} className="space-y-2" aria-label={`${title} wallet`}>
        <input type="hidden" name="network" value={network} />
        <label htmlFor={inputId} className="block text-sm font-semibold">
          {title} address
        </label>
        <p id={`${inputId}-hint`} className="text-xs text-slate-600">
          {hint}
        </p>
        <div className="flex flex-wrap gap-2">
          <input
            id={inputId}
            name="address"
            type="text"
            defaultValue={address ?? ''}
            key={address ?? ''}
            autoComplete="off"
            spellCheck={false}
            aria-invalid={Boolean(error)}
            aria-describedby={`${inputId}-hint${error ? ` ${inputId}-error` : ''}`}
            className={`${inputClass} min-w-0 flex-1 basis-48 font-mono`}
          />
          <button type="submit" className={buttonClass.primary} disabled={pending}>
            Save {title}
          </button>
        </div>
        <FieldError id={`${inputId}-error`} message={error} />
        {state?.ok ? <p className="text-sm text-green-800">Saved.</p> : null}
      </form>
      {address ? (
        <div className="mt-2">
          <ConfirmAction
            action={remove}
            fields={{ network }}
            trigger={`Remove ${title} wallet`}
            triggerClass="text-sm text-red-700 underline"
            title={`Remove the ${title} wallet?`}
            confirm="Remove wallet"
            success={() => `${title} wallet removed.`}
          >
            New live invoices on {title} will be refused until you add a wallet again. Existing invoices keep their address.
          </ConfirmAction>
        </div>
      ) : null}
    </div>
  );
}
