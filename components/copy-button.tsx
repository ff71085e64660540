'use client';

import { useState } from 'react';
import { buttonClass, cx } from './ui';

/**
 * Copies a value to the clipboard; the value stays in the browser. `label` is the visible text; `name` (what is
 * copied, e.g. "invoice id") makes the accessible name specific when several copy buttons share a page.
 */
export function CopyButton({
  value,
  label = 'Copy',
  name,
  size = 'md',
}: {
  value: string;
  label?: string;
  name?: string;
  size?: 'sm' | 'md';
}) {
  const [copied, setCopied] = useState(false);
  return (
    <button
      type="button"
      className={cx(buttonClass.secondary, size === 'sm' && 'px-2 py-1 text-xs')}
      aria-label={name ? `Copy ${name}` : undefined}
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

/** A long value (id, address) that wraps anywhere, with its copy button beside it. */
export function CopyableValue({ value, name }: { value: string; name: string }) {
  return (
    <span className="inline-flex max-w-full flex-wrap items-center gap-2">
      <code className="min-w-0 break-all font-mono text-xs">{value}</code>
      <CopyButton value={value} name={name} size="sm" />
    </span>
  );
}
