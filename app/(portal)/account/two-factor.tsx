'use client';

import { useRouter } from 'next/navigation';
import { useEffect, useRef, useState, useTransition } from 'react';
import { ConfirmAction } from '@/components/confirm-action';
import { CopyButton } from '@/components/copy-button';
import { Dialog } from '@/components/dialog';
import { useAnnounce } from '@/components/status';
import { useStepUp } from '@/components/step-up';
import { buttonClass, Notice, TextField } from '@/components/ui';
import { useKeptForm } from '@/components/use-kept-form';
import type { Enrolment } from '@/lib/auth/two-factor';
import { confirmTwoFactor, disableTwoFactorAction, startTwoFactor } from './actions';

/**
 * Two-factor sign-in on the Account page: off → "Set up" (step-up) shows the secret as a QR code and as text →
 * a code from the app confirms it → the ten recovery codes, shown once in a dialog that only its button closes.
 * On → how many recovery codes are left, and "Turn off" (step-up, which asks for a code too).
 */
export function TwoFactor({ enabled, recoveryCodesLeft }: { enabled: boolean; recoveryCodesLeft: number }) {
  const start = useStepUp(startTwoFactor);
  const disable = useStepUp(disableTwoFactorAction);
  const [confirmState, onConfirm, confirming] = useKeptForm(useStepUp(confirmTwoFactor));
  const [enrolment, setEnrolment] = useState<Enrolment | null>(null);
  const [startError, setStartError] = useState<string | null>(null);
  const [starting, startTransition] = useTransition();
  // The first code of the set the user dismissed: a later enrolment's codes are shown again.
  const [savedSet, setSavedSet] = useState<string | null>(null);
  const router = useRouter();
  const announce = useAnnounce();
  const setupButton = useRef<HTMLButtonElement>(null);
  const recoveryCodes =
    confirmState?.ok && confirmState.data.recoveryCodes[0] !== savedSet ? confirmState.data.recoveryCodes : null;
  const confirmErrors = confirmState && !confirmState.ok ? (confirmState.fieldErrors ?? {}) : {};

  useEffect(() => {
    // A confirmed enrolment closes the setup panel; the action's result arrives as new state, not an event.
    // eslint-disable-next-line react-hooks/set-state-in-effect
    if (confirmState?.ok) setEnrolment(null);
  }, [confirmState]);

  const begin = () =>
    startTransition(async () => {
      setStartError(null);
      const result = await start(null, new FormData());
      if (result.ok) setEnrolment(result.data);
      else setStartError(result.error);
    });

  return (
    <div className="space-y-4 text-sm">
      {enabled && !recoveryCodes ? (
        <>
          <p data-testid="two-factor-status">
            <strong>On.</strong> Signing in with your password also asks for a code from your authenticator app, and so
            does confirming a change of wallets or live keys.{' '}
            {recoveryCodesLeft === 1 ? '1 recovery code is' : `${recoveryCodesLeft} recovery codes are`} left.
          </p>
          <ConfirmAction
            action={disable}
            fields={{}}
            trigger="Turn off two-factor sign-in"
            title="Turn off two-factor sign-in?"
            confirm="Turn off"
            success={() => 'Two-factor sign-in is off.'}
          >
            Signing in will need only your password. Your recovery codes stop working.
          </ConfirmAction>
        </>
      ) : null}

      {!enabled && !enrolment ? (
        <>
          <p data-testid="two-factor-status">
            <strong>Off.</strong> With two-factor sign-in, a stolen password is not enough: signing in also needs a code
            from an authenticator app (any app that reads TOTP QR codes).
          </p>
          {startError ? <Notice tone="error">{startError}</Notice> : null}
          <button ref={setupButton} type="button" className={buttonClass.primary} onClick={begin} disabled={starting}>
            {starting ? 'Preparing…' : 'Set up two-factor sign-in'}
          </button>
        </>
      ) : null}

      {enrolment ? (
        <div className="space-y-4">
          <ol className="list-decimal space-y-3 pl-5">
            <li>
              Scan this QR code with your authenticator app.
              {/* A data: URL (allowed by the CSP's img-src); the SVG is the qrcode library's, from our own otpauth:// URI.
                  next/image would only add an optimiser round trip for an inline SVG. */}
              {/* eslint-disable-next-line @next/next/no-img-element */}
              <img
                src={`data:image/svg+xml;base64,${btoa(enrolment.qrSvg)}`}
                alt="QR code of the two-factor secret for your authenticator app"
                width={192}
                height={192}
                className="mt-2 h-48 w-48 rounded ring-1 ring-slate-200"
              />
            </li>
            <li>
              Or type this key into the app by hand:
              <div className="mt-1 flex flex-wrap items-center gap-2">
                <code className="break-all rounded bg-slate-100 px-2 py-1 font-mono" data-testid="totp-secret">
                  {enrolment.secret}
                </code>
                <CopyButton value={enrolment.secret} label="Copy key" />
              </div>
            </li>
            <li>Enter the 6-digit code the app shows, to confirm.</li>
          </ol>
          <form onSubmit={onConfirm} className="space-y-3" aria-label="Confirm two-factor sign-in">
            {confirmState && !confirmState.ok && !confirmErrors.code ? (
              <Notice tone="error">{confirmState.error}</Notice>
            ) : null}
            <TextField
              name="code"
              label="Code from the app"
              autoComplete="one-time-code"
              inputMode="numeric"
              required
              error={confirmErrors.code}
            />
            <div className="flex flex-wrap gap-2">
              <button type="submit" className={buttonClass.primary} disabled={confirming}>
                {confirming ? 'Checking…' : 'Turn on two-factor sign-in'}
              </button>
              <button type="button" className={buttonClass.secondary} onClick={() => setEnrolment(null)}>
                Cancel
              </button>
            </div>
          </form>
        </div>
      ) : null}

      <Dialog
        open={recoveryCodes !== null}
        dismissible={false}
        onClose={() => {}}
        title="Two-factor sign-in is on: save your recovery codes"
        testId="recovery-codes-dialog"
        initialFocus="#recovery-codes-done"
      >
        {recoveryCodes ? (
          <>
            <Notice tone="warning" title="Shown only now">
              Each code signs you in once if you lose your authenticator app. Keep them somewhere safe (a password
              manager). We store only their hashes.
            </Notice>
            <ul
              className="mt-4 grid gap-2 whitespace-nowrap font-mono text-sm sm:grid-cols-2"
              data-testid="recovery-codes"
              aria-label="Recovery codes"
            >
              {recoveryCodes.map((code) => (
                <li key={code}>{code}</li>
              ))}
            </ul>
            <div className="mt-4 flex flex-wrap justify-end gap-2">
              <CopyButton value={recoveryCodes.join('\n')} label="Copy codes" />
              <button
                id="recovery-codes-done"
                type="button"
                className={buttonClass.primary}
                onClick={() => {
                  setSavedSet(recoveryCodes[0] ?? null);
                  announce('success', 'Two-factor sign-in is on.');
                  router.refresh();
                }}
              >
                I have saved these codes
              </button>
            </div>
          </>
        ) : null}
      </Dialog>
    </div>
  );
}
