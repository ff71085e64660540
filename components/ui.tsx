import type { InputHTMLAttributes, ReactNode } from 'react';

/** Presentational building blocks shared by the portal pages. No data access, no actions. */

export function cx(...classes: Array<string | false | null | undefined>): string {
  return classes.filter(Boolean).join(' ');
}

export const buttonClass = {
  primary:
    'inline-flex items-center justify-center rounded-md bg-indigo-600 px-3 py-2 text-sm font-semibold text-white shadow-sm hover:bg-indigo-500 disabled:opacity-60',
  secondary:
    'inline-flex items-center justify-center rounded-md bg-white px-3 py-2 text-sm font-semibold text-slate-900 ring-1 ring-inset ring-slate-300 hover:bg-slate-50 disabled:opacity-60',
  danger:
    'inline-flex items-center justify-center rounded-md bg-red-600 px-3 py-2 text-sm font-semibold text-white shadow-sm hover:bg-red-500 disabled:opacity-60',
} as const;

export const inputClass =
  'block w-full rounded-md border-0 bg-white px-3 py-2 text-sm text-slate-900 ring-1 ring-inset ring-slate-300 placeholder:text-slate-400 focus:ring-2 focus:ring-inset focus:ring-indigo-600';

export function PageHeader({
  title,
  description,
  children,
}: {
  title: string;
  description?: ReactNode;
  children?: ReactNode;
}) {
  return (
    <div className="mb-6 flex flex-wrap items-end justify-between gap-4">
      {/* min-w-0 and overflow-wrap: a title with a long id ("Request req_…") wraps instead of widening a phone's page. */}
      <div className="min-w-0 max-w-full">
        <h1 className="text-2xl font-bold tracking-tight [overflow-wrap:anywhere]">{title}</h1>
        {description ? <p className="mt-1 text-sm text-slate-600">{description}</p> : null}
      </div>
      {children}
    </div>
  );
}

export function Card({ title, children, className }: { title?: string; children: ReactNode; className?: string }) {
  return (
    <section
      className={cx('rounded-lg bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-6', className)}
      aria-label={title}
    >
      {title ? <h2 className="mb-4 text-lg font-semibold">{title}</h2> : null}
      {children}
    </section>
  );
}

const badgeTones = {
  gray: 'bg-slate-100 text-slate-700 ring-slate-300',
  green: 'bg-green-50 text-green-800 ring-green-600/30',
  amber: 'bg-amber-50 text-amber-800 ring-amber-600/30',
  red: 'bg-red-50 text-red-800 ring-red-600/30',
  blue: 'bg-blue-50 text-blue-800 ring-blue-600/30',
  violet: 'bg-violet-50 text-violet-800 ring-violet-600/30',
} as const;

export function Badge({ tone = 'gray', children }: { tone?: keyof typeof badgeTones; children: ReactNode }) {
  return (
    <span
      className={cx(
        'inline-flex items-center rounded-md px-2 py-0.5 text-xs font-medium ring-1 ring-inset',
        badgeTones[tone],
      )}
    >
      {children}
    </span>
  );
}

export function EnvironmentBadge({ environment }: { environment: 'test' | 'live' }) {
  return <Badge tone={environment === 'live' ? 'green' : 'amber'}>{environment === 'live' ? 'Live' : 'Test'}</Badge>;
}

/** Badge tones by status word, for every status the portal shows (invoices, payments, keys, deliveries); others are amber. */
const STATUS_TONES: Record<string, 'green' | 'blue' | 'gray' | 'red'> = {
  paid: 'green',
  active: 'green',
  confirmed: 'green',
  succeeded: 'green',
  pending: 'blue',
  processing: 'blue',
  cancelled: 'gray',
  expired: 'gray',
  revoked: 'red',
  reverted: 'red',
  failed: 'red',
};

export function StatusBadge({ status }: { status: string }) {
  return <Badge tone={STATUS_TONES[status] ?? 'amber'}>{status}</Badge>;
}

export function Notice({
  tone = 'info',
  title,
  children,
}: {
  tone?: 'info' | 'warning' | 'error' | 'success';
  title?: string;
  children: ReactNode;
}) {
  const tones = {
    info: 'bg-blue-50 text-blue-900 ring-blue-200',
    warning: 'bg-amber-50 text-amber-900 ring-amber-300',
    error: 'bg-red-50 text-red-900 ring-red-200',
    success: 'bg-green-50 text-green-900 ring-green-200',
  } as const;
  return (
    <div role={tone === 'error' ? 'alert' : 'status'} className={cx('rounded-md p-4 text-sm ring-1', tones[tone])}>
      {title ? <p className="font-semibold">{title}</p> : null}
      <div className={title ? 'mt-1' : undefined}>{children}</div>
    </div>
  );
}

export function FieldError({ id, message }: { id: string; message?: string }) {
  if (!message) return null;
  return (
    <p id={id} className="mt-1 text-sm text-red-700">
      {message}
    </p>
  );
}

export interface TableColumn {
  label: string;
  /** Visually hidden header (e.g. an actions column), still read by screen readers. */
  hidden?: boolean;
  align?: 'left' | 'right';
}

/**
 * A responsive table with a header row; the page supplies the body rows, with <Td label="…"> cells. Below 640 px
 * every row becomes a stacked card (each cell prefixed by its label; globals.css `.table-stack`), so nothing
 * is clipped and the page never scrolls sideways; put the important columns first.
 */
export function DataTable({
  columns,
  testId,
  children,
}: {
  columns: TableColumn[];
  testId?: string;
  children: ReactNode;
}) {
  return (
    <div className="max-w-full overflow-x-auto">
      <table className="table-stack min-w-full text-left text-sm" data-testid={testId}>
        <thead className="border-b border-slate-200 text-xs uppercase text-slate-600">
          <tr>
            {columns.map((column) => (
              <th key={column.label} scope="col" className={cx('px-3 py-2', column.align === 'right' && 'text-right')}>
                {column.hidden ? <span className="sr-only">{column.label}</span> : column.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">{children}</tbody>
      </table>
    </div>
  );
}

/** A labelled text input with an optional hint and error, wired for screen readers (aria-describedby). */
export function TextField({
  name,
  label,
  hint,
  error,
  ...input
}: { name: string; label: ReactNode; hint?: string; error?: string } & Omit<
  InputHTMLAttributes<HTMLInputElement>,
  'name' | 'id'
>) {
  const describedBy =
    [error ? `${name}-error` : null, hint ? `${name}-hint` : null].filter(Boolean).join(' ') || undefined;
  return (
    <div>
      <label htmlFor={name} className="block text-sm font-medium">
        {label}
      </label>
      <input
        id={name}
        name={name}
        aria-invalid={Boolean(error)}
        aria-describedby={describedBy}
        className={`mt-1 ${inputClass}`}
        {...input}
      />
      {hint ? (
        <p id={`${name}-hint`} className="mt-1 text-xs text-slate-600">
          {hint}
        </p>
      ) : null}
      <FieldError id={`${name}-error`} message={error} />
    </div>
  );
}

/** A table cell that keeps its column's label for the stacked (narrow-screen) layout of DataTable. */
export function Td({ label, className, children }: { label: string; className?: string; children?: ReactNode }) {
  return (
    <td data-label={label} className={cx('px-3 py-2', className)}>
      {children}
    </td>
  );
}
