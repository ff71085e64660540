/**
 * What a step-up asks this account for, in words — one sentence part used by the dialog, the pages that warn
 * about a step-up and the step_up_required message, so none of them says "your password" to an account that must
 * also type a code. It follows what lib/auth/step-up.ts accepts (docs/portal.md, "What counts as proof"). No
 * database here: client components import it.
 */
export interface StepUpMethodsForCopy {
  password: boolean;
  totp: boolean;
}

export function stepUpProofText(methods: StepUpMethodsForCopy | null): string {
  if (!methods) return 'your password (and a code from your authenticator app when two-factor sign-in is on)';
  if (methods.password && methods.totp)
    return 'your password and a code from your authenticator app (or a recovery code)';
  if (methods.password) return 'your password';
  if (methods.totp) return 'a code from your authenticator app (or a recovery code)';
  return 'a two-factor code (turn two-factor sign-in on, on the Account page)';
}
