'use client';

import { useEffect, useId, useRef, type ReactNode } from 'react';
import { cx } from './ui';

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/**
 * A modal dialog on the native <dialog> (the rest of the page is inert while it is open). On top of what the
 * browser gives: Tab and Shift+Tab wrap inside the dialog (never out to the browser's toolbar), Escape closes
 * only when `dismissible` (the new-secret dialog is not: it closes by its explicit button), and on close focus
 * returns to the element that had it when the dialog opened (or to the page's main region if that element is gone).
 */
export function Dialog({
  open,
  onClose,
  title,
  description,
  dismissible = true,
  initialFocus,
  returnFocus,
  children,
  testId,
}: {
  open: boolean;
  onClose: () => void;
  title: ReactNode;
  description?: ReactNode;
  dismissible?: boolean;
  /** A CSS selector inside the dialog to focus first; else the first focusable element. */
  initialFocus?: string;
  /** Where focus goes on close when it is not the element focused at opening (e.g. that was a disabled submit button). */
  returnFocus?: () => HTMLElement | null;
  children: ReactNode;
  testId?: string;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const opener = useRef<Element | null>(null);
  const titleId = useId();
  const descriptionId = useId();

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog || !open) return;
    opener.current = document.activeElement;
    if (!dialog.open) dialog.showModal();
    const first =
      (initialFocus ? dialog.querySelector<HTMLElement>(initialFocus) : null) ??
      dialog.querySelector<HTMLElement>(FOCUSABLE);
    first?.focus();
    return () => {
      if (dialog.open) dialog.close();
      const back = returnFocus?.() ?? opener.current;
      if (back instanceof HTMLElement && back !== document.body && back.isConnected) back.focus();
      else document.getElementById('main')?.focus();
    };
    // returnFocus is read at close time only.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [open, initialFocus]);

  if (!open) return null;
  return (
    <dialog
      ref={ref}
      aria-labelledby={titleId}
      aria-describedby={description ? descriptionId : undefined}
      data-testid={testId}
      className={cx(
        'm-auto w-[min(32rem,calc(100vw-2rem))] max-w-none rounded-lg bg-white p-0 text-slate-900 shadow-xl backdrop:bg-slate-900/50',
      )}
      onCancel={(event) => {
        // Escape: the browser would close the dialog itself; we decide instead.
        event.preventDefault();
        if (dismissible) onClose();
      }}
      onKeyDown={(event) => {
        if (event.key !== 'Tab') return;
        const items = Array.from(event.currentTarget.querySelectorAll<HTMLElement>(FOCUSABLE)).filter(
          (el) => el.offsetParent !== null,
        );
        if (items.length === 0) return;
        const first = items[0] as HTMLElement;
        const last = items[items.length - 1] as HTMLElement;
        if (event.shiftKey && document.activeElement === first) {
          event.preventDefault();
          last.focus();
        } else if (!event.shiftKey && document.activeElement === last) {
          event.preventDefault();
          first.focus();
        }
      }}
    >
      <div className="p-4 sm:p-6">
        <h2 id={titleId} className="break-words text-lg font-semibold">
          {title}
        </h2>
        {description ? (
          <div id={descriptionId} className="mt-2 text-sm text-slate-700">
            {description}
          </div>
        ) : null}
        <div className="mt-4">{children}</div>
      </div>
    </dialog>
  );
}
