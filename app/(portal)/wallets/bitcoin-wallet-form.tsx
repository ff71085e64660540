'use client';

import { useEffect } from 'react';
import { ConfirmAction } from '@/components/confirm-action';
import { useAnnounce } from '@/components/status';
import { useStepUp } from '@/components/step-up';
import { buttonClass, FieldError, inputClass } from '@/components/ui';
import { useKeptForm } from '@/components/use-kept-form';
import { deleteWallet, previewBitcoinWallet, saveWallet } from './actions';

/**
 * The Bitcoin wallet: an extended public key or wpkh() descriptor. "Show addresses" derives the first three
 * receive addresses (nothing is saved) so the merchant can compare them with their wallet's; only then can the
 * key be saved (with the step-up every wallet change asks for).
 */
export function BitcoinWalletForm({
  hint,
  wallet,
  addresses,
  gapWarning,
}: {
  hint: string;
  wallet: string | null;
  addresses: string[];
  gapWarning: string | null;
}) {
  const [preview, onPreview, previewing] = useKeptForm(previewBitcoinWallet);
  const [saved, onSave, saving] = useKeptForm(useStepUp(saveWallet));
  const remove = useStepUp(deleteWallet);
  const announce = useAnnounce();
  const error = preview && !preview.ok ? (preview.fieldErrors?.address ?? preview.error) : undefined;
  const saveError = saved && !saved.ok ? (saved.fieldErrors?.address ?? saved.error) : undefined;
  const shown = preview?.ok ? preview.data : null;
  useEffect(() => {
    if (saved?.ok) announce('success', 'Bitcoin wallet saved.');
  }, [saved, announce]);
  return (
    <div className="min-w-0 rounded-lg p-4 ring-1 ring-slate-200 lg:col-span-2">
      <form onSubmit={onPreview} className="space-y-2" aria-label="Bitcoin wallet">
        <label htmlFor="wallet-bitcoin" className="block text-sm font-semibold">
          Bitcoin extended public key or descriptor
        </label>
        <p id="wallet-bitcoin-hint" className="text-xs text-slate-600">
          {hint}
        </p>
        <div className="flex flex-wrap gap-2">
          <input
            id="wallet-bitcoin"
            name="address"
            type="text"
            defaultValue={wallet ?? ''}
            key={wallet ?? ''}
            autoComplete="off"
            spellCheck={false}
            aria-invalid={Boolean(error)}
            aria-describedby={`wallet-bitcoin-hint${error ? ' wallet-bitcoin-error' : ''}`}
            className={`${inputClass} min-w-0 flex-1 basis-64 font-mono`}
          />
          <button type="submit" className={buttonClass.secondary} disabled={previewing}>
            Show addresses
          </button>
        </div>
        <FieldError id="wallet-bitcoin-error" message={error} />
      </form>
      {shown ? (
        <form onSubmit={onSave} className="mt-3 space-y-2" aria-label="Save Bitcoin wallet">
          <input type="hidden" name="network" value="bitcoin" />
          <input type="hidden" name="address" value={shown.wallet} />
          <p className="text-sm">Compare these with the first receive addresses your wallet shows for this account:</p>
          <ol className="list-inside list-decimal font-mono text-xs break-all" aria-label="First three addresses">
            {shown.addresses.map((a) => (
              <li key={a.index}>{a.address}</li>
            ))}
          </ol>
          <button type="submit" className={buttonClass.primary} disabled={saving}>
            They match: save Bitcoin wallet
          </button>
          <FieldError id="wallet-bitcoin-save-error" message={saveError} />
          {saved?.ok ? <p className="text-sm text-green-800">Saved.</p> : null}
        </form>
      ) : wallet && addresses.length > 0 ? (
        <div className="mt-3">
          <p className="text-sm">First addresses of the saved key:</p>
          <ol
            className="list-inside list-decimal font-mono text-xs break-all"
            aria-label="First three addresses of the saved key"
          >
            {addresses.map((address) => (
              <li key={address}>{address}</li>
            ))}
          </ol>
        </div>
      ) : null}
      {gapWarning ? (
        <div role="note" className="mt-3 rounded-md bg-amber-50 p-3 text-sm text-amber-900 ring-1 ring-amber-300">
          {gapWarning}
        </div>
      ) : null}
      {wallet ? (
        <div className="mt-2">
          <ConfirmAction
            action={remove}
            fields={{ network: 'bitcoin' }}
            trigger="Remove Bitcoin wallet"
            triggerClass="text-sm text-red-700 underline"
            title="Remove the Bitcoin wallet?"
            confirm="Remove wallet"
            success={() => 'Bitcoin wallet removed.'}
          >
            New live invoices on Bitcoin will be refused until you add a wallet again. Existing invoices keep their
            address.
          </ConfirmAction>
        </div>
      ) : null}
    </div>
  );
}
