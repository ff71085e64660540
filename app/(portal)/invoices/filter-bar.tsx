import Link from 'next/link';
import { buttonClass, inputClass } from '@/components/ui';
import { CURRENCIES, NETWORKS } from '@/lib/invoices/currencies';
import type { InvoiceFilters } from '@/lib/invoices/filters';
import { INVOICE_STATUSES } from '@/lib/invoices/state';

const selectClass = 'mt-1 block w-full rounded-md bg-white px-3 py-2 text-sm ring-1 ring-slate-300';
const labelClass = 'block text-sm font-medium';

/**
 * The list's one search and filter bar: a GET form, so every filter lives in the address (shareable, kept by
 * Back, read by the export link). Raw values are shown back as typed, even when not valid.
 */
export function FilterBar({
  environment,
  values,
}: {
  environment: 'test' | 'live';
  values: Partial<Record<keyof InvoiceFilters, string>>;
}) {
  return (
    <form
      method="get"
      action="/invoices"
      role="search"
      aria-label="Search and filter invoices"
      className="rounded-lg bg-white p-4 shadow-sm ring-1 ring-slate-200"
    >
      <input type="hidden" name="env" value={environment} />
      <div className="grid grid-cols-2 gap-3 sm:grid-cols-4 lg:grid-cols-8">
        <div className="col-span-2">
          <label htmlFor="filter-q" className={labelClass}>
            Invoice id or order id
          </label>
          <input
            id="filter-q"
            name="q"
            type="search"
            defaultValue={values.q ?? ''}
            maxLength={128}
            autoComplete="off"
            className={`mt-1 ${inputClass} font-mono`}
          />
        </div>
        <div>
          <label htmlFor="filter-status" className={labelClass}>
            Status
          </label>
          <select id="filter-status" name="status" defaultValue={values.status ?? ''} className={selectClass}>
            <option value="">All</option>
            {INVOICE_STATUSES.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor="filter-network" className={labelClass}>
            Network
          </label>
          <select id="filter-network" name="network" defaultValue={values.network ?? ''} className={selectClass}>
            <option value="">All</option>
            {NETWORKS.map((n) => (
              <option key={n} value={n}>
                {n}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor="filter-currency" className={labelClass}>
            Currency
          </label>
          <select id="filter-currency" name="currency" defaultValue={values.currency ?? ''} className={selectClass}>
            <option value="">All</option>
            {CURRENCIES.map((c) => (
              <option key={c} value={c}>
                {c}
              </option>
            ))}
          </select>
        </div>
        <fieldset className="col-span-2 min-w-0 sm:col-span-2 lg:col-span-3">
          <legend className={labelClass}>Created (UTC days)</legend>
          <div className="mt-1 grid grid-cols-2 gap-2">
            <div>
              <label htmlFor="filter-from" className="sr-only">
                Created from
              </label>
              <input
                id="filter-from"
                name="from"
                type="date"
                defaultValue={values.from ?? ''}
                className={inputClass}
                aria-describedby="filter-dates-hint"
              />
            </div>
            <div>
              <label htmlFor="filter-to" className="sr-only">
                Created to
              </label>
              <input
                id="filter-to"
                name="to"
                type="date"
                defaultValue={values.to ?? ''}
                className={inputClass}
                aria-describedby="filter-dates-hint"
              />
            </div>
          </div>
          <p id="filter-dates-hint" className="sr-only">
            From and to, both days included.
          </p>
        </fieldset>
        <fieldset className="col-span-2 min-w-0 lg:col-span-3">
          <legend className={labelClass}>Amount</legend>
          <div className="mt-1 grid grid-cols-2 gap-2">
            <div>
              <label htmlFor="filter-min" className="sr-only">
                Amount at least
              </label>
              <input
                id="filter-min"
                name="min"
                inputMode="decimal"
                placeholder="min"
                defaultValue={values.min ?? ''}
                maxLength={40}
                className={`${inputClass} tabular-nums`}
              />
            </div>
            <div>
              <label htmlFor="filter-max" className="sr-only">
                Amount at most
              </label>
              <input
                id="filter-max"
                name="max"
                inputMode="decimal"
                placeholder="max"
                defaultValue={values.max ?? ''}
                maxLength={40}
                className={`${inputClass} tabular-nums`}
              />
            </div>
          </div>
        </fieldset>
        <div className="col-span-2 flex items-end gap-2 sm:col-span-4 lg:col-span-2">
          <button type="submit" className={buttonClass.primary}>
            Apply
          </button>
          <Link href={`/invoices?env=${environment}`} className={buttonClass.secondary}>
            Clear
          </Link>
        </div>
      </div>
    </form>
  );
}
