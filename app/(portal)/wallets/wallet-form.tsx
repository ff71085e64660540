'use client';

import { useActionState } from 'react';
import { buttonClass, FieldError, inputClass } from '@/components/ui';
import { deleteWallet, saveWallet } from './actions';

export function WalletForm({ network, title, hint, address }: { network: string; title: string; hint: string; address: string | null }) {
  const [state, action, pending] = useActionState(saveWallet, null);
  const [removeState, removeAction, removing] = useActionState(deleteWallet, null);
  const inputId = `wallet-${network}`;
  const error = state && !state.ok ? (state.fieldErrors?.address ?? state.error) : undefined;
  return (
    <div className="rounded-lg p-4 ring-1 ring-slate-200">
      <form action={action} className="space-y-2" aria-label={`${title} wallet`}>
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
            className={`${inputClass} min-w-0 flex-1 font-mono`}
          />
          <button type="submit" className={buttonClass.primary} disabled={pending}>
            Save {title}
          </button>
        </div>
        <FieldError id={`${inputId}-error`} message={error} />
        {state?.ok ? (
          <p role="status" className="text-sm text-green-800">
            Saved.
          </p>
        ) : null}
      </form>
      {address ? (
        <form action={removeAction} className="mt-2">
          <input type="hidden" name="network" value={network} />
          <button type="submit" className="text-sm text-red-700 underline" disabled={removing}>
            Remove {title} wallet
          </button>
          {removeState && !removeState.ok ? <p className="text-sm text-red-700">{removeState.error}</p> : null}
        </form>
      ) : null}
    </div>
  );
}
