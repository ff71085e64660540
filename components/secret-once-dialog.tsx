'use client';

import type { ReactNode } from 'react';
import { CopyButton } from './copy-button';
import { Dialog } from './dialog';
import { buttonClass, inputClass, Notice } from './ui';

/**
 * The one moment a secret (an API key, a webhook signing secret) can be copied: a modal on the shared Dialog
 * (focus kept inside, returned on close) that Escape and the backdrop do not close — only "I have saved the
 * secret" does. The secret lives only in the caller's state, which came from a no-store action response.
 */
export function SecretOnceDialog({
  open,
  title,
  warningTitle,
  warning,
  label,
  secret,
  inputId,
  inputTestId,
  testId,
  returnFocus,
  onDone,
  children,
}: {
  open: boolean;
  title: string;
  warningTitle: string;
  warning: ReactNode;
  /** The secret field's label ("Secret", "New secret", "Signing secret"). */
  label: string;
  secret: string;
  inputId: string;
  inputTestId?: string;
  testId?: string;
  returnFocus?: () => HTMLElement | null;
  onDone: () => void;
  /** Details below the secret (prefix, scopes, …). */
  children?: ReactNode;
}) {
  return (
    <Dialog
      open={open}
      dismissible={false}
      onClose={() => {}}
      initialFocus={`#${inputId}`}
      returnFocus={returnFocus}
      title={title}
      testId={testId}
    >
      <Notice tone="warning" title={warningTitle}>
        {warning}
      </Notice>
      <label htmlFor={inputId} className="mt-4 block text-sm font-medium">
        {label}
      </label>
      <div className="mt-1 flex flex-wrap gap-2">
        <input
          id={inputId}
          readOnly
          value={secret}
          onFocus={(e) => e.currentTarget.select()}
          className={`${inputClass} w-full min-w-0 font-mono`}
          data-testid={inputTestId}
        />
        <CopyButton value={secret} label="Copy secret" />
      </div>
      {children}
      <div className="mt-6 flex justify-end">
        <button type="button" className={buttonClass.primary} onClick={onDone}>
          I have saved the secret
        </button>
      </div>
    </Dialog>
  );
}
