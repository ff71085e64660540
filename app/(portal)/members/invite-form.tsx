'use client';

import { useEffect, useRef, useState } from 'react';
import { CopyButton } from '@/components/copy-button';
import { Dialog } from '@/components/dialog';
import { useAnnounce } from '@/components/status';
import { buttonClass, FieldError, inputClass, Notice } from '@/components/ui';
import { useKeptForm } from '@/components/use-kept-form';
import { inviteMember } from './actions';

/**
 * Invite by email with a role. The link is shown once, in a dialog only "Done" closes (it is not stored: only its
 * hash is); it was also mailed when the server has SMTP_URL. `roles`: what this member may hand out.
 */
export function InviteForm({ roles }: { roles: { value: string; label: string; description: string }[] }) {
  const [state, onSubmit, pending] = useKeptForm(inviteMember);
  const [dismissed, setDismissed] = useState<string | null>(null);
  const form = useRef<HTMLFormElement>(null);
  const announce = useAnnounce();
  const invited = state?.ok && state.data.url !== dismissed ? state.data : null;
  const errors = state && !state.ok ? (state.fieldErrors ?? {}) : {};

  useEffect(() => {
    if (state?.ok) {
      form.current?.reset();
      announce('success', `Invitation for ${state.data.email} created.`);
    }
  }, [state, announce]);

  return (
    <>
      <form ref={form} onSubmit={onSubmit} className="space-y-4" aria-label="Invite a member">
        {state && !state.ok ? <Notice tone="error">{state.error}</Notice> : null}
        <div className="grid gap-4 sm:grid-cols-2">
          <div>
            <label htmlFor="invite-email" className="block text-sm font-medium">
              Email
            </label>
            <input
              id="invite-email"
              name="email"
              type="email"
              required
              maxLength={254}
              autoComplete="off"
              aria-invalid={Boolean(errors.email)}
              aria-describedby={errors.email ? 'invite-email-error' : undefined}
              className={`mt-1 ${inputClass}`}
            />
            <FieldError id="invite-email-error" message={errors.email} />
          </div>
          <div>
            <label htmlFor="invite-role" className="block text-sm font-medium">
              Role
            </label>
            <select id="invite-role" name="role" defaultValue="developer" className={`mt-1 ${inputClass}`}>
              {roles.map((role) => (
                <option key={role.value} value={role.value}>
                  {role.label}
                </option>
              ))}
            </select>
            <FieldError id="invite-role-error" message={errors.role} />
          </div>
        </div>
        <ul className="space-y-1 text-xs text-slate-600">
          {roles.map((role) => (
            <li key={role.value}>
              <span className="font-semibold">{role.label}</span>: {role.description}
            </li>
          ))}
        </ul>
        <button type="submit" className={buttonClass.primary} disabled={pending}>
          {pending ? 'Inviting…' : 'Invite'}
        </button>
      </form>
      <Dialog
        open={Boolean(invited)}
        dismissible={false}
        onClose={() => setDismissed(invited?.url ?? null)}
        title={`Invitation for ${invited?.email ?? ''}`}
        description={
          invited?.mail === 'sent'
            ? 'The link was mailed to them. It is shown here once, if you prefer to pass it on yourself.'
            : invited?.mail === 'failed'
              ? 'The mail could not be sent. Copy the link now and pass it on: it is shown only once.'
              : 'Copy the link now and send it to them: it is shown only once (no mail server is configured).'
        }
      >
        {invited ? (
          <div className="space-y-3" data-testid="invitation-link-dialog">
            <label htmlFor="invitation-link" className="block text-sm font-medium">
              Invitation link
            </label>
            <div className="flex gap-2">
              <input
                id="invitation-link"
                data-testid="invitation-link"
                readOnly
                value={invited.url}
                className={`${inputClass} font-mono text-xs`}
              />
              <CopyButton value={invited.url} name="invitation link" />
            </div>
            <Notice tone="info">
              It works once, for 7 days, and only for an account with the email {invited.email}.
            </Notice>
            <div className="flex justify-end">
              <button type="button" className={buttonClass.primary} onClick={() => setDismissed(invited.url)}>
                Done
              </button>
            </div>
          </div>
        ) : null}
      </Dialog>
    </>
  );
}
