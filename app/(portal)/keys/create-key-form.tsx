'use client';

import { useEffect, useRef, useState } from 'react';
import { useAnnounce } from '@/components/status';
import { SecretOnceDialog } from '@/components/secret-once-dialog';
import { useStepUp, useStepUpProof } from '@/components/step-up';
import { buttonClass, FieldError, inputClass, Notice } from '@/components/ui';
import { useKeptForm } from '@/components/use-kept-form';
import { SCOPE_DESCRIPTIONS, SCOPES } from '@/lib/scopes';
import { createKey } from './actions';

// The scope table's own descriptions (lib/scopes.ts): what each scope grants, said once.
const SCOPE_OPTIONS = SCOPES.map((value) => ({ value, description: SCOPE_DESCRIPTIONS[value] }));

/**
 * Create-key form. After an error every field keeps what the user typed and chose (useKeptForm), so a
 * corrected re-submit creates exactly the key on screen; only a success clears it.
 */
/** `liveAllowed`: the role table lets this member make live keys (the server checks again). */
export function CreateKeyForm({ liveAllowed }: { liveAllowed: boolean }) {
  // A live key asks the user to confirm it is them (step-up) when the server says so; a test key never does.
  const [state, onSubmit, pending] = useKeptForm(useStepUp(createKey));
  const stepUpProof = useStepUpProof();
  const [dismissed, setDismissed] = useState<number | null>(null);
  const form = useRef<HTMLFormElement>(null);
  const submit = useRef<HTMLButtonElement>(null);
  const announce = useAnnounce();
  const created = state?.ok && state.data.key.id !== dismissed ? state.data : null;
  const errors = state && !state.ok ? (state.fieldErrors ?? {}) : {};

  useEffect(() => {
    if (state?.ok) {
      form.current?.reset();
      announce('success', `Key “${state.data.key.label}” created (${state.data.key.environment}).`);
    }
  }, [state, announce]);

  return (
    <>
      <form ref={form} onSubmit={onSubmit} className="space-y-4" aria-label="Create API key" noValidate={false}>
        {state && !state.ok ? <Notice tone="error">{state.error}</Notice> : null}
        <div>
          <label htmlFor="key-label" className="block text-sm font-medium">
            Label
          </label>
          <input
            id="key-label"
            name="label"
            type="text"
            required
            maxLength={64}
            placeholder="e.g. Staging server"
            aria-invalid={Boolean(errors.label)}
            aria-describedby={errors.label ? 'key-label-error' : undefined}
            className={`mt-1 ${inputClass}`}
          />
          <FieldError id="key-label-error" message={errors.label} />
        </div>
        <fieldset aria-describedby={errors.environment ? 'key-environment-error' : undefined}>
          <legend className="text-sm font-medium">Environment</legend>
          <div className="mt-2 flex flex-wrap gap-4 text-sm">
            <label className="flex items-center gap-2">
              <input type="radio" name="environment" value="test" defaultChecked /> Test (
              <code className="font-mono">test_</code> keys, simulated payments)
            </label>
            {liveAllowed ? (
              <label className="flex items-center gap-2">
                <input type="radio" name="environment" value="live" /> Live (<code className="font-mono">live_</code>{' '}
                keys, real payments)
              </label>
            ) : null}
          </div>
          {liveAllowed ? (
            <p className="mt-1 text-xs text-slate-600">
              Creating or rolling a live key asks you to confirm it is you ({stepUpProof}).
            </p>
          ) : (
            <p className="mt-1 text-xs text-slate-600">Live keys are for Owners and Admins of the workspace.</p>
          )}
          <FieldError id="key-environment-error" message={errors.environment} />
        </fieldset>
        <fieldset aria-describedby={`scopes-hint${errors.scopes ? ' key-scopes-error' : ''}`}>
          <legend className="text-sm font-medium">Scopes</legend>
          <p id="scopes-hint" className="mt-1 text-xs text-slate-600">
            Leave both unchecked to give the key both scopes.
          </p>
          <div className="mt-2 space-y-2 text-sm">
            {SCOPE_OPTIONS.map((scope) => (
              <label key={scope.value} className="flex items-start gap-2">
                <input type="checkbox" name="scopes" value={scope.value} className="mt-1" />
                <span className="min-w-0">
                  <code className="font-mono">{scope.value}</code>{' '}
                  <span className="text-slate-600">— {scope.description}</span>
                </span>
              </label>
            ))}
          </div>
          <FieldError id="key-scopes-error" message={errors.scopes} />
        </fieldset>
        <div className="grid gap-4 sm:grid-cols-2">
          <div>
            <label htmlFor="key-expiry" className="block text-sm font-medium">
              Expires
            </label>
            <select id="key-expiry" name="expiresInDays" defaultValue="" className={`mt-1 ${inputClass}`}>
              <option value="">Never</option>
              <option value="7">In 7 days</option>
              <option value="30">In 30 days</option>
              <option value="90">In 90 days</option>
              <option value="365">In 1 year</option>
            </select>
          </div>
          <div>
            <label htmlFor="key-allowed-ips" className="block text-sm font-medium">
              Allowed IP addresses <span className="font-normal text-slate-600">(optional)</span>
            </label>
            <input
              id="key-allowed-ips"
              name="allowedIps"
              type="text"
              placeholder="e.g. 203.0.113.0/24, 2001:db8::/32"
              aria-invalid={Boolean(errors.allowedIps)}
              aria-describedby={
                errors.allowedIps ? 'key-allowed-ips-error key-allowed-ips-hint' : 'key-allowed-ips-hint'
              }
              className={`mt-1 ${inputClass}`}
            />
            <p id="key-allowed-ips-hint" className="mt-1 text-xs text-slate-600">
              IPv4 or IPv6 addresses or CIDR ranges, comma separated. Empty: any address.
            </p>
            <FieldError id="key-allowed-ips-error" message={errors.allowedIps} />
          </div>
        </div>
        <button ref={submit} type="submit" className={buttonClass.primary} disabled={pending}>
          {pending ? 'Creating…' : 'Create key'}
        </button>
      </form>

      <SecretOnceDialog
        open={created !== null}
        title={created ? `API key created: ${created.key.label}` : ''}
        warningTitle="Copy this secret now"
        warning="This is the only time the full secret is shown. We store only a hash of it: if you lose it, revoke the key and create a new one."
        label="Secret"
        secret={created?.secret ?? ''}
        inputId="new-key-secret"
        inputTestId="new-key-secret"
        testId="new-key-dialog"
        returnFocus={() => submit.current}
        onDone={() => created && setDismissed(created.key.id)}
      >
        {created ? (
          <p className="mt-3 break-words text-sm text-slate-600">
            Prefix <code className="font-mono">{created.key.prefix}</code> · {created.key.environment} · scopes{' '}
            {created.key.scopes.join(', ')}
          </p>
        ) : null}
      </SecretOnceDialog>
    </>
  );
}
