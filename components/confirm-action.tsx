'use client';

import { useRouter } from 'next/navigation';
import { useState, useTransition, type ReactNode } from 'react';
import type { ActionResult, ActionState } from '@/lib/portal/action';
import { Dialog } from './dialog';
import { useAnnounce } from './status';
import { buttonClass } from './ui';

type FormAction<T> = (previous: ActionState<T>, formData: FormData) => Promise<ActionResult<T>>;

/**
 * A button that asks first: it opens a confirmation dialog whose confirm button submits `action` with the
 * hidden `fields`. The outcome goes to the page's status region (useAnnounce), and the page's data is
 * refreshed after success *and* failure (a conflict means the page was stale).
 */
export function ConfirmAction<T>({
  action,
  fields,
  trigger,
  triggerLabel,
  triggerClass = buttonClass.secondary,
  title,
  confirm,
  tone = 'danger',
  success,
  children,
}: {
  action: FormAction<T>;
  fields: Record<string, string>;
  /** The visible text of the button that opens the dialog. */
  trigger: ReactNode;
  /** Its accessible name when the visible text alone is ambiguous (e.g. "Revoke key Staging"). */
  triggerLabel?: string;
  triggerClass?: string;
  title: ReactNode;
  /** The confirm button's text: says what happens ("Revoke key", "Cancel invoice"). */
  confirm: string;
  tone?: 'danger' | 'primary';
  success: (data: T) => string;
  /** What the action does and what it cannot undo. */
  children: ReactNode;
}) {
  const [pending, startTransition] = useTransition();
  const [open, setOpen] = useState(false);
  const announce = useAnnounce();
  const router = useRouter();

  // Announced from the transition itself, not from an effect of this component: a success often unmounts it
  // (a revoked key loses its revoke button, a cancelled invoice its actions) in the same render as the result.
  const run = (formData: FormData) =>
    startTransition(async () => {
      const result = await action(null, formData);
      announce(result.ok ? 'success' : 'error', result.ok ? success(result.data) : result.error);
      router.refresh();
    });

  return (
    <>
      <button
        type="button"
        className={triggerClass}
        aria-label={triggerLabel}
        aria-haspopup="dialog"
        disabled={pending}
        onClick={() => setOpen(true)}
      >
        {trigger}
      </button>
      <Dialog open={open} onClose={() => setOpen(false)} title={title} description={children}>
        <form
          onSubmit={(event) => {
            event.preventDefault();
            const formData = new FormData(event.currentTarget);
            setOpen(false);
            run(formData);
          }}
          className="flex flex-wrap justify-end gap-2"
        >
          {Object.entries(fields).map(([name, value]) => (
            <input key={name} type="hidden" name={name} value={value} />
          ))}
          <button type="button" className={buttonClass.secondary} onClick={() => setOpen(false)}>
            Keep it
          </button>
          <button type="submit" className={tone === 'danger' ? buttonClass.danger : buttonClass.primary}>
            {confirm}
          </button>
        </form>
      </Dialog>
    </>
  );
}
