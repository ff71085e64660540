'use client';

import { useEffect, useState } from 'react';
import { ConfirmAction } from '@/components/confirm-action';
import { useAnnounce } from '@/components/status';
import { useStepUp } from '@/components/step-up';
import { CopyButton } from '@/components/copy-button';
import { buttonClass, FieldError, inputClass } from '@/components/ui';
import { useKeptForm } from '@/components/use-kept-form';
import type { Network } from '@/lib/invoices/currencies';
import { walletClaimMessage } from '@/lib/wallets/ownership/message';
import { deleteWallet, saveWallet } from './actions';

/**
 * One network's wallet. A refused address stays in the field (useKeptForm) beside its error, so the typo is visible.
 * Saving and removing ask the user to confirm it is them (step-up) when the server says so.
 */
export function WalletForm({
  workspaceId,
  network,
  title,
  hint,
  address,
}: {
  workspaceId: string;
  network: Network;
  title: string;
  hint: string;
  address: string | null;
}) {
  const [state, onSubmit, pending] = useKeptForm(useStepUp(saveWallet));
  const [typed, setTyped] = useState(address ?? '');
  const remove = useStepUp(deleteWallet);
  const announce = useAnnounce();
  const inputId = `wallet-${network}`;
  // The address is another workspace's wallet: this one may use it only with the key's signature of a message.
  const claim =
    state && !state.ok && (state.code === 'wallet_address_claimed' || state.code === 'wallet_signature_invalid');
  const error = state && !state.ok && !claim ? (state.fieldErrors?.address ?? state.error) : undefined;
  const message = claim ? walletClaimMessage(workspaceId, network, typed.trim()) : '';
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
            onChange={(event) => setTyped(event.target.value)}
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
        {claim ? (
          <div className="space-y-2 rounded-md bg-amber-50 p-3 text-sm text-amber-950 ring-1 ring-amber-300">
            <p>
              {state.code === 'wallet_signature_invalid'
                ? state.error
                : 'This address is already the wallet of another workspace. To use it here too, prove you control it: sign this message with the address’s key (“Sign message” in your wallet) and paste the signature.'}
            </p>
            <div className="flex flex-wrap items-start gap-2">
              <code
                className="min-w-0 flex-1 basis-56 break-all rounded bg-white p-2 font-mono text-xs"
                data-testid={`claim-message-${network}`}
              >
                {message}
              </code>
              <CopyButton value={message} label="Copy message" />
            </div>
            <label htmlFor={`${inputId}-signature`} className="block font-semibold">
              Signature
            </label>
            <input
              id={`${inputId}-signature`}
              name="signature"
              type="text"
              autoComplete="off"
              spellCheck={false}
              required
              className={`${inputClass} w-full font-mono`}
              placeholder="0x…"
            />
          </div>
        ) : null}
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
            New live invoices on {title} will be refused until you add a wallet again. Existing invoices keep their
            address.
          </ConfirmAction>
        </div>
      ) : null}
    </div>
  );
}
