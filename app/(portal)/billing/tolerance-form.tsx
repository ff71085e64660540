'use client';

import { useEffect } from 'react';
import { useAnnounce } from '@/components/status';
import { useStepUp } from '@/components/step-up';
import { buttonClass, FieldError, inputClass } from '@/components/ui';
import { useKeptForm } from '@/components/use-kept-form';
import { savePaymentTolerance } from './actions';

/** The payment tolerance (docs/rates.md). Saving asks the user to confirm it is them (step-up) when the server says so. */
export function ToleranceForm({ percent }: { percent: string }) {
  const [state, onSubmit, pending] = useKeptForm(useStepUp(savePaymentTolerance));
  const announce = useAnnounce();
  const error = state && !state.ok ? (state.fieldErrors?.percent ?? state.error) : undefined;
  useEffect(() => {
    if (state?.ok) announce('success', `Payment tolerance set to ${state.data.percent} %.`);
  }, [state, announce]);
  return (
    <form onSubmit={onSubmit} className="space-y-2" aria-label="Payment tolerance">
      <label htmlFor="tolerance-percent" className="block text-sm font-semibold">
        Payment tolerance (%)
      </label>
      <p id="tolerance-hint" className="text-sm text-slate-600">
        A confirmed payment short of the invoice amount by at most this share still marks the invoice paid, flagged
        &ldquo;underpaid within tolerance&rdquo;. From 0 to 5, at most two decimals; 0 accepts only the full amount.
      </p>
      <div className="flex flex-wrap gap-2">
        <input
          id="tolerance-percent"
          name="percent"
          type="text"
          inputMode="decimal"
          defaultValue={percent}
          key={percent}
          autoComplete="off"
          aria-invalid={Boolean(error)}
          aria-describedby={`tolerance-hint${error ? ' tolerance-error' : ''}`}
          className={`${inputClass} w-32 font-mono`}
        />
        <button type="submit" className={buttonClass.primary} disabled={pending}>
          Save tolerance
        </button>
      </div>
      <FieldError id="tolerance-error" message={error} />
      {state?.ok ? <p className="text-sm text-green-800">Saved: {state.data.percent} %.</p> : null}
    </form>
  );
}
