import { describe, expect, it } from 'vitest';
import { stepUpProofText } from './step-up-copy';

describe('what a step-up asks for, in words', () => {
  it('names a code to every account with two-factor sign-in, the password only to accounts that have one', () => {
    expect(stepUpProofText({ password: true, totp: false })).toBe('your password');
    expect(stepUpProofText({ password: true, totp: true })).toBe(
      'your password and a code from your authenticator app (or a recovery code)',
    );
    expect(stepUpProofText({ password: false, totp: true })).toBe(
      'a code from your authenticator app (or a recovery code)',
    );
    expect(stepUpProofText({ password: false, totp: false })).toContain('two-factor');
    expect(stepUpProofText(null)).toContain('when two-factor sign-in is on');
  });
});
