'use client';

import { createContext, useCallback, useContext, useState, type ReactNode } from 'react';
import { cx } from './ui';

export type StatusTone = 'success' | 'error';
interface Status {
  tone: StatusTone;
  message: string;
  /** Changes on every announcement, so the same message twice is announced twice. */
  id: number;
}

const StatusContext = createContext<(tone: StatusTone, message: string) => void>(() => {});

/**
 * One status region per page, above the page's content: actions announce their outcome here (it outlives the
 * button that triggered it, e.g. a revoke button that disappears once its key is revoked). Success is a polite
 * status, failure an alert.
 */
export function StatusProvider({ children }: { children: ReactNode }) {
  const [status, setStatus] = useState<Status | null>(null);
  const announce = useCallback(
    (tone: StatusTone, message: string) => setStatus((prev) => ({ tone, message, id: (prev?.id ?? 0) + 1 })),
    [],
  );
  return (
    <StatusContext.Provider value={announce}>
      <StatusMessage status={status} onDismiss={() => setStatus(null)} />
      {children}
    </StatusContext.Provider>
  );
}

/** announce(tone, message): shows the outcome of an action in the page's status region. */
export function useAnnounce() {
  return useContext(StatusContext);
}

/** The region itself: always in the DOM (live regions must exist before their text changes). */
export function StatusMessage({ status, onDismiss }: { status: Status | null; onDismiss?: () => void }) {
  return (
    <div className={status ? 'mb-4' : undefined} data-testid="status-region">
      <div role="status" aria-live="polite" className="contents">
        {status?.tone === 'success' ? (
          <Banner key={status.id} tone="success" message={status.message} onDismiss={onDismiss} />
        ) : null}
      </div>
      <div role="alert" className="contents">
        {status?.tone === 'error' ? (
          <Banner key={status.id} tone="error" message={status.message} onDismiss={onDismiss} />
        ) : null}
      </div>
    </div>
  );
}

function Banner({ tone, message, onDismiss }: { tone: StatusTone; message: string; onDismiss?: () => void }) {
  return (
    <p
      data-tone={tone}
      className={cx(
        'flex items-start justify-between gap-3 rounded-md p-3 text-sm ring-1 break-words',
        tone === 'success' ? 'bg-green-50 text-green-900 ring-green-200' : 'bg-red-50 text-red-900 ring-red-200',
      )}
    >
      <span className="min-w-0">{message}</span>
      {onDismiss ? (
        <button type="button" onClick={onDismiss} className="shrink-0 text-xs font-semibold underline">
          Dismiss
        </button>
      ) : null}
    </p>
  );
}
