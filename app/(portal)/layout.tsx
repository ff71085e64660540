import type { ReactNode } from 'react';
import { NAV_HREFS } from '@/components/portal-links';
import { PortalNav } from '@/components/portal-nav';
import { SignOutButton } from '@/components/sign-out-button';
import { StatusProvider } from '@/components/status';
import { StepUpProvider } from '@/components/step-up';
import { Badge } from '@/components/ui';
import { WorkspaceSwitcher } from '@/components/workspace-switcher';
import { STEP_UP_WINDOW_SECONDS, stepUpMethods } from '@/lib/auth/step-up';
import { githubOAuth } from '@/lib/env';
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
  return (
    <div className="min-h-screen">
      <a href="#main" className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:rounded focus:bg-white focus:p-2">
        Skip to content
      </a>
      <header className="border-b border-slate-200 bg-white">
        <div className="mx-auto flex max-w-6xl flex-wrap items-center justify-between gap-3 px-4 py-3">
          <div className="min-w-0">
            <p className="truncate text-sm font-semibold" data-testid="workspace-name">
              {ctx.workspace.name}
            </p>
            <p className="truncate text-xs text-slate-600">
              {ctx.email} · <span data-testid="workspace-role">{ROLE_LABELS[ctx.role]}</span> · <Badge tone={ctx.workspace.plan === 'Developer' || ctx.workspace.plan === 'Business' ? 'green' : 'amber'}>{ctx.workspace.plan}</Badge>
            </p>
          </div>
          <div className="flex flex-wrap items-center gap-3">
            <WorkspaceSwitcher
              current={ctx.workspace.id}
              workspaces={ctx.workspaces.map((w) => ({ id: w.id, name: w.name, roleLabel: ROLE_LABELS[w.role] }))}
              switchAction={switchWorkspace}
            />
            <SignOutButton />
          </div>
        </div>
        <div className="mx-auto max-w-6xl px-3">
          <PortalNav visible={visibleLinks(ctx.role)} />
        </div>
      </header>
      {/* tabIndex -1: focus lands here when a dialog closes and the element that opened it is gone. */}
      <main id="main" tabIndex={-1} className="mx-auto max-w-6xl px-4 py-6 focus:outline-none">
        <StatusProvider>
          <StepUpProvider confirm={confirmIdentity} methods={methods} github={githubOAuth() !== null} windowMinutes={STEP_UP_WINDOW_SECONDS / 60}>
            {children}
          </StepUpProvider>
        </StatusProvider>
      </main>
    </div>
  );
}
