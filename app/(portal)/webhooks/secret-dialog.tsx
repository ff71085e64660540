'use client';

import { CopyButton } from '@/components/copy-button';
import { buttonClass, inputClass, Notice } from '@/components/ui';

/**
 * The one-time display of a signing secret (after create or roll), like the API key's: the secret lives only in
 * this dialog's props, which came from the server action's no-store response; closing it forgets it.
 */
export function SecretDialog({ title, secret, note, onClose }: { title: string; secret: string; note?: string; onClose: () => void }) {
  return (
    <div className="fixed inset-0 z-50 flex items-center justify-center bg-slate-900/50 p-4">
      <div role="dialog" aria-modal="true" aria-labelledby="webhook-secret-title" aria-describedby="webhook-secret-warning" className="w-full max-w-lg rounded-lg bg-white p-6 shadow-xl">
        <h2 id="webhook-secret-title" className="text-lg font-semibold break-words">
          {title}
        </h2>
        <div id="webhook-secret-warning" className="mt-3">
          <Notice tone="warning" title="Copy this signing secret now">
            This is the only time the secret is shown. Your receiver verifies each delivery with it (see the webhooks guide). {note}
          </Notice>
        </div>
        <label htmlFor="webhook-secret" className="mt-4 block text-sm font-medium">
          Signing secret
        </label>
        <div className="mt-1 flex flex-wrap gap-2">
          <input
            id="webhook-secret"
            readOnly
            value={secret}
            autoFocus
            onFocus={(e) => e.currentTarget.select()}
            className={`${inputClass} min-w-0 flex-1 font-mono`}
            data-testid="webhook-secret"
          />
          <CopyButton value={secret} label="Copy secret" />
        </div>
        <div className="mt-6 flex justify-end">
          <button type="button" className={buttonClass.primary} onClick={onClose}>
            I have saved the secret
          </button>
        </div>
      </div>
    </div>
  );
}
