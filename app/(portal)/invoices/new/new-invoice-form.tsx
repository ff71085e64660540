'use client';

import { useState } from 'react';
import { buttonClass, FieldError, inputClass, Notice, TextField } from '@/components/ui';
import { useKeptForm } from '@/components/use-kept-form';
import { CURRENCIES, CURRENCY_RULES, type Currency } from '@/lib/invoices/currencies';
import { createPortalInvoice } from '../actions';

const EXPIRY_OPTIONS = [
  { seconds: 900, label: '15 minutes' },
  { seconds: 3600, label: '1 hour' },
  { seconds: 86_400, label: '24 hours' },
  { seconds: 604_800, label: '7 days' },
] as const;

const selectClass = `mt-1 ${inputClass}`;

type PricedIn = 'crypto' | 'USD' | 'EUR';

/** Keeps every field after an error (useKeptForm); on success the action opens the new invoice's page. */
/** `liveAllowed`: the role table lets this member create live invoices (the server checks again). */
export function NewInvoiceForm({ liveAllowed }: { liveAllowed: boolean }) {
  const [state, onSubmit, pending] = useKeptForm(createPortalInvoice);
  const [currency, setCurrency] = useState<Currency>('USDT');
  const [pricedIn, setPricedIn] = useState<PricedIn>('crypto');
  const networks = CURRENCY_RULES[currency].networks;
  const [network, setNetwork] = useState<string>(networks[0] ?? '');
  const errors = state && !state.ok ? (state.fieldErrors ?? {}) : {};

  return (
    <form onSubmit={onSubmit} className="max-w-xl space-y-4" aria-label="New invoice">
      {state && !state.ok ? <Notice tone="error">{state.error}</Notice> : null}
      <fieldset>
        <legend className="text-sm font-medium">Environment</legend>
        <div className="mt-2 flex flex-wrap gap-4 text-sm">
          <label className="flex items-center gap-2">
            <input type="radio" name="environment" value="test" defaultChecked /> Test (simulated payments, test
            address)
          </label>
          {liveAllowed ? (
            <label className="flex items-center gap-2">
              <input type="radio" name="environment" value="live" /> Live (paid to your wallet)
            </label>
          ) : null}
        </div>
        {liveAllowed ? null : (
          <p className="mt-1 text-xs text-slate-600">Live invoices are for Owners and Admins of the workspace.</p>
        )}
        <FieldError id="invoice-environment-error" message={errors.environment} />
      </fieldset>
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField
          name="amount"
          label="Amount"
          inputMode="decimal"
          required
          placeholder="49.99"
          autoComplete="off"
          error={errors.amount ?? errors.price_amount ?? errors.price_currency}
          hint={
            pricedIn === 'crypto'
              ? 'A decimal such as 49.99, in the currency below.'
              : `A price in ${pricedIn} such as 49.99, converted to the currency below at a rate locked for the invoice's life.`
          }
        />
        <div>
          <label htmlFor="priced_in" className="block text-sm font-medium">
            Priced in
          </label>
          <select
            id="priced_in"
            name="priced_in"
            value={pricedIn}
            onChange={(e) => setPricedIn(e.target.value as PricedIn)}
            className={selectClass}
          >
            <option value="crypto">The currency below</option>
            <option value="USD">US dollars (USD)</option>
            <option value="EUR">Euros (EUR)</option>
          </select>
        </div>
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <div>
          <label htmlFor="currency" className="block text-sm font-medium">
            Currency
          </label>
          <select
            id="currency"
            name="currency"
            value={currency}
            onChange={(e) => {
              const next = e.target.value as Currency;
              setCurrency(next);
              if (!CURRENCY_RULES[next].networks.includes(network as never))
                setNetwork(CURRENCY_RULES[next].networks[0] ?? '');
            }}
            aria-invalid={Boolean(errors.currency)}
            aria-describedby={errors.currency ? 'currency-error' : undefined}
            className={selectClass}
          >
            {CURRENCIES.map((c) => (
              <option key={c} value={c}>
                {c}
              </option>
            ))}
          </select>
          <FieldError id="currency-error" message={errors.currency} />
        </div>
        <div>
          <label htmlFor="network" className="block text-sm font-medium">
            Network
          </label>
          <select
            id="network"
            name="network"
            value={network}
            onChange={(e) => setNetwork(e.target.value)}
            aria-invalid={Boolean(errors.network)}
            aria-describedby={errors.network ? 'network-error' : undefined}
            className={selectClass}
          >
            {networks.map((n) => (
              <option key={n} value={n}>
                {n}
              </option>
            ))}
          </select>
          <FieldError id="network-error" message={errors.network} />
        </div>
      </div>
      <TextField
        name="description"
        label="Description (optional)"
        maxLength={500}
        error={errors.description}
        hint="Shown to you and the payer, up to 500 characters."
      />
      <TextField
        name="order_id"
        label="Order id (optional)"
        maxLength={128}
        autoComplete="off"
        error={errors.order_id}
        hint="Your own reference; the invoices page can search by it."
      />
      <div>
        <label htmlFor="expires_in" className="block text-sm font-medium">
          Expires after
        </label>
        <select
          id="expires_in"
          name="expires_in"
          defaultValue={3600}
          className={selectClass}
          aria-invalid={Boolean(errors.expires_in)}
          aria-describedby={errors.expires_in ? 'expires_in-error' : undefined}
        >
          {EXPIRY_OPTIONS.map((option) => (
            <option key={option.seconds} value={option.seconds}>
              {option.label}
            </option>
          ))}
        </select>
        <FieldError id="expires_in-error" message={errors.expires_in} />
      </div>
      <button type="submit" className={buttonClass.primary} disabled={pending}>
        {pending ? 'Creating…' : 'Create invoice'}
      </button>
    </form>
  );
}
