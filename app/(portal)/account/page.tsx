import type { Metadata } from 'next';
import { LocalTime } from '@/components/local-time';
import { Card, PageHeader } from '@/components/ui';
import { listOAuthAccounts } from '@/lib/auth/oauth';
import { twoFactorStatus } from '@/lib/auth/second-factor';
import { stepUpMethods } from '@/lib/auth/step-up';
import { githubOAuth } from '@/lib/env';
import { requirePage } from '@/lib/portal/context';
import { ConnectGitHub, DisconnectGitHub } from './connect-github';
import { PasswordForm } from './password-form';
import { SignOutEverywhere } from './sign-out-everywhere';
import { TwoFactor } from './two-factor';

export const metadata: Metadata = { title: 'Account' };

export default async function AccountPage() {
  const ctx = await requirePage('/account');
  const [accounts, twoFactor, methods] = await Promise.all([
    listOAuthAccounts(ctx.userId),
    twoFactorStatus(ctx.userId),
    stepUpMethods(ctx.userId),
  ]);
  const github = accounts.find((account) => account.provider === 'github');
  return (
    <>
      <PageHeader title="Account" description={`Signed in as ${ctx.email}`} />
      <div className="space-y-6">
        {methods.password ? (
          <Card title="Password">
            <PasswordForm needsCode={twoFactor.enabled} />
          </Card>
        ) : null}
        <Card title="Two-factor sign-in">
          <TwoFactor enabled={twoFactor.enabled} recoveryCodesLeft={twoFactor.recoveryCodesLeft} />
        </Card>
        {githubOAuth() ? (
          <Card title="GitHub sign-in">
            {github ? (
              <>
                <p className="mb-3 text-sm">
                  Connected{github.email ? ` (${github.email})` : ''} on <LocalTime value={github.createdAt} />. You can
                  sign in with GitHub
                  {twoFactor.enabled ? '; your authentication code is asked for then too' : ''}.
                </p>
                {methods.password ? <DisconnectGitHub /> : null}
              </>
            ) : (
              <>
                <p className="mb-3 text-sm text-slate-600">
                  Sign in with GitHub to this account. A GitHub sign-in is joined to an account only from here, after
                  you confirm it is you — never because the email addresses match.
                </p>
                <ConnectGitHub />
              </>
            )}
          </Card>
        ) : null}
        <Card title="Sessions">
          <p className="mb-3 text-sm text-slate-600">
            Ends every other session of this account — browsers signed in with the password or with GitHub. This one
            stays signed in.
          </p>
          <SignOutEverywhere />
        </Card>
      </div>
    </>
  );
}
