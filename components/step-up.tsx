'use client';

import { signIn } from 'next-auth/react';
import { createContext, useCallback, useContext, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { stepUpProofText } from '@/lib/auth/step-up-copy';
import type { ActionResult, ActionState } from '@/lib/portal/action';
import { Dialog } from './dialog';
import { buttonClass, Notice, TextField } from './ui';

type FormAction<T> = (previous: ActionState<T>, formData: FormData) => Promise<ActionResult<T>>;

/** Opens the "confirm it is you" dialog; resolves true once this session has stepped up, false if cancelled. */
const StepUpContext = createContext<() => Promise<boolean>>(async () => false);
/** What a step-up asks this account for, in words ("your password and a code from your authenticator app …"). */
const StepUpProofContext = createContext<string>(stepUpProofText(null));

/** For forms that say beforehand that a change needs a step-up: what this account will be asked for. */
export function useStepUpProof(): string {
  return useContext(StepUpProofContext);
}

const CANCELLED = 'Nothing was changed: this change needs you to confirm it is you first.';

/**
 * Wraps a protected server action (wallet change, live key, two-factor) for a form: the action runs; when the
 * server answers step_up_required, the step-up dialog opens, and after a successful step-up the same form data is
 * sent again. The server decides every time — this only saves the user from typing the change twice.
 */
export function useStepUp<T>(action: FormAction<T>): FormAction<T> {
  const request = useContext(StepUpContext);
  return useCallback(
    async (previous, formData) => {
      const first = await action(previous, formData);
      if (first.ok || first.code !== 'step_up_required') return first;
      if (!(await request())) return { ok: false, error: CANCELLED, code: 'step_up_required' };
      return action(previous, formData);
    },
    [action, request],
  );
}

/**
 * The step-up dialog, mounted once by the portal layout. `methods` says what this account can prove: its
 * password, a TOTP code, or — with neither (GitHub-only) — a fresh GitHub sign-in.
 */
export function StepUpProvider({
  confirm,
  methods,
  github,
  windowMinutes,
  children,
}: {
  confirm: FormAction<{ until: string }>;
  methods: { password: boolean; totp: boolean };
  github: boolean;
  windowMinutes: number;
  children: ReactNode;
}) {
  const [open, setOpen] = useState(false);
  const [result, setResult] = useState<ActionResult<{ until: string }> | null>(null);
  // Plain state, not useTransition: the dialog opens while the protected action's transition is still pending,
  // and React keeps every transition started meanwhile pending until that one ends — a transition's isPending
  // would stay true after a wrong password and disable the button for the second try.
  const [pending, setPending] = useState(false);
  const resolver = useRef<((confirmed: boolean) => void) | null>(null);

  const request = useCallback(
    () =>
      new Promise<boolean>((resolve) => {
        resolver.current?.(false);
        resolver.current = resolve;
        setResult(null);
        setOpen(true);
      }),
    [],
  );

  const finish = (confirmed: boolean) => {
    setOpen(false);
    resolver.current?.(confirmed);
    resolver.current = null;
  };

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const formData = new FormData(event.currentTarget);
    setPending(true);
    try {
      const outcome = await confirm(null, formData);
      setResult(outcome);
      if (outcome.ok) finish(true);
    } catch {
      setResult({ ok: false, error: 'Something went wrong. Please try again.' });
    } finally {
      setPending(false);
    }
  };

  const errors = result && !result.ok ? (result.fieldErrors ?? {}) : {};
  const canType = methods.password || methods.totp;
  return (
    <StepUpContext.Provider value={request}>
      <StepUpProofContext.Provider value={stepUpProofText(methods)}>{children}</StepUpProofContext.Provider>
      <Dialog
        open={open}
        onClose={() => finish(false)}
        title="Confirm it is you"
        testId="step-up-dialog"
        description={
          <p>
            Changes to where money goes and who has access (payout wallets, live keys and endpoints, two-factor sign-in,
            members) need proof that it is you:{' '}
            {canType ? stepUpProofText(methods) : 'a code from your authenticator app'}. The proof lasts {windowMinutes}{' '}
            minutes on this device.
          </p>
        }
      >
        {canType ? (
          <form onSubmit={(event) => void onSubmit(event)} className="space-y-4" aria-label="Confirm it is you">
            {result && !result.ok ? <Notice tone="error">{result.error}</Notice> : null}
            {methods.password ? (
              <TextField
                name="stepUpPassword"
                label="Password"
                type="password"
                autoComplete="current-password"
                required
                error={errors.password}
              />
            ) : null}
            {methods.totp ? (
              <TextField
                name="stepUpCode"
                label="Authentication code"
                autoComplete="one-time-code"
                spellCheck={false}
                required
                hint="The 6-digit code from your authenticator app, or one of your recovery codes."
                error={errors.code}
              />
            ) : null}
            <div className="flex flex-wrap justify-end gap-2">
              <button type="button" className={buttonClass.secondary} onClick={() => finish(false)}>
                Cancel
              </button>
              <button type="submit" className={buttonClass.primary} disabled={pending}>
                {pending ? 'Checking…' : 'Confirm'}
              </button>
            </div>
          </form>
        ) : (
          <div className="space-y-4 text-sm">
            <p>
              This account signs in with GitHub and has no password, and GitHub cannot be asked to check it is you
              again. Turn on two-factor sign-in on the Account page (allowed within {windowMinutes} minutes of a GitHub
              sign-in); changes like this one then ask for a code.
            </p>
            <div className="flex flex-wrap justify-end gap-2">
              <button type="button" className={buttonClass.secondary} onClick={() => finish(false)}>
                Cancel
              </button>
              {github ? (
                <button
                  type="button"
                  className={buttonClass.primary}
                  onClick={() => void signIn('github', { callbackUrl: window.location.pathname })}
                >
                  Sign in with GitHub again
                </button>
              ) : null}
            </div>
          </div>
        )}
      </Dialog>
    </StepUpContext.Provider>
  );
}
