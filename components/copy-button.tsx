'use client';

import { useState } from 'react';
import { buttonClass } from './ui';

/** Copies a value to the clipboard; the value stays in the browser. */
export function CopyButton({ value, label = 'Copy' }: { value: string; label?: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <button
      type="button"
      className={buttonClass.secondary}
      onClick={async () => {
        try {
          await navigator.clipboard.writeText(value);
          setCopied(true);
          setTimeout(() => setCopied(false), 2000);
        } catch {
          setCopied(false);
        }
      }}
    >
      {copied ? 'Copied' : label}
      <span className="sr-only" aria-live="polite">
        {copied ? ' to clipboard' : ''}
      </span>
    </button>
  );
}
