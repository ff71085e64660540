import { cookies } from 'next/headers';
import type { ReactNode } from 'react';
import { TimeZoneProvider } from '@/components/local-time';
import { NAV_HREFS } from '@/components/portal-links';
import { PortalNav } from '@/components/portal-nav';
import { SignOutButton } from '@/components/sign-out-button';
import { StatusProvider } from '@/components/status';
import { StepUpProvider } from '@/components/step-up';
import { Badge } from '@/components/ui';
import { WorkspaceSwitcher } from '@/components/workspace-switcher';
import { STEP_UP_WINDOW_SECONDS, stepUpMethods } from '@/lib/auth/step-up';
import { githubOAuth } from '@/lib/env';
import { isTimeZone, TIME_ZONE_COOKIE } from '@/lib/format/date-time';
import { requirePortalContext } from '@/lib/portal/context';
import { can, PAGE_PERMISSIONS, ROLE_LABELS, type PortalPage } from '@/lib/teams/roles';
import { switchWorkspace } from '../(auth)/workspaces/actions';
import { confirmIdentity } from './account/actions';

/** A navigation link shows when the role table lets the member open its page (/docs is public). */
function visibleLinks(role: Parameters<typeof can>[0]): string[] {
  return NAV_HREFS.filter((href) => !(href in PAGE_PERMISSIONS) || can(role, PAGE_PERMISSIONS[href as PortalPage]));
}

export const dynamic = 'force-dynamic';

export default async function PortalLayout({ children }: { children: ReactNode }) {
  const ctx = await requirePortalContext();
  const methods = await stepUpMethods(ctx.userId);
  // The viewer's zone, kept by the browser in a cookie: dates render in it on the server (no flash after load).
  const zone = (await cookies()).get(TIME_ZONE_COOKIE)?.value;
  return (
    <TimeZoneProvider serverTimeZone={isTimeZone(zone) ? zone : null}>
      <div className="min-h-screen">
        <a
          href="#main"
          className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:rounded focus:bg-white focus:p-2"
        >
          Skip to content
        </a>
        <header className="border-b border-slate-200 bg-white">
          <PortalNav
            visible={visibleLinks(ctx.role)}
            identity={
              <>
                <p className="truncate text-sm font-semibold" data-testid="workspace-name">
                  {ctx.workspace.name}
                </p>
                <p className="truncate text-xs text-slate-600">
                  {ctx.email} · <span data-testid="workspace-role">{ROLE_LABELS[ctx.role]}</span> ·{' '}
                  <Badge
                    tone={ctx.workspace.plan === 'Developer' || ctx.workspace.plan === 'Business' ? 'green' : 'amber'}
                  >
                    {ctx.workspace.plan}
                  </Badge>
                </p>
              </>
            }
            account={
              <div className="flex flex-wrap items-center gap-3">
                <WorkspaceSwitcher
                  current={ctx.workspace.id}
                  workspaces={ctx.workspaces.map((w) => ({ id: w.id, name: w.name, roleLabel: ROLE_LABELS[w.role] }))}
                  switchAction={switchWorkspace}
                />
                <SignOutButton />
              </div>
            }
          />
        </header>
        {/* tabIndex -1: focus lands here when a dialog closes and the element that opened it is gone. */}
        <main id="main" tabIndex={-1} className="mx-auto max-w-6xl px-4 py-6 focus:outline-none">
          <StatusProvider>
            <StepUpProvider
              confirm={confirmIdentity}
              methods={methods}
              github={githubOAuth() !== null}
              windowMinutes={STEP_UP_WINDOW_SECONDS / 60}
            >
              {children}
            </StepUpProvider>
          </StatusProvider>
        </main>
      </div>
    </TimeZoneProvider>
  );
}
