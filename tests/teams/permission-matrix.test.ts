import { randomUUID } from 'node:crypto';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { OPERATOR } from '@/lib/audit/audit';
import { stepUp } from '@/lib/auth/step-up';
import { createSession } from '@/lib/auth/sessions';
import { createApiKey } from '@/lib/keys/keys';
import type { DeclaredRule } from '@/lib/portal/action';
import { addMemberByEmail, listMembers, removeMember } from '@/lib/teams/members';
import { can, PAGE_PERMISSIONS, ROLES, type Role } from '@/lib/teams/roles';
import { createUserWithWorkspace } from '@/lib/workspaces/workspaces';
import { baseUrl } from '../support/http';
import { builtActions, callAction, routeOf, sessionCookie, type BuiltAction } from '../support/portal-actions';

// The permission matrix, generated from the role table (lib/teams/roles.ts): every server action the build contains
// and every portal page, called over HTTP by a member of each role. An action or page without a rule fails here.

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const PORTAL = path.join(ROOT, 'app', '(portal)');
const PASSWORD = 'correct horse battery';

/** Actions reachable without a session (sign-up), each with why it needs no rule. */
const PUBLIC_ACTIONS: Record<string, string> = {
  'app/(auth)/signup/actions.ts#signUp': 'creates an account; no workspace or role involved',
  'app/(auth)/invite/[token]/actions.ts#signUpFromInvitation':
    'creates an account from an invitation token; the token is the authority',
  'app/(auth)/signin/actions.ts#completeSignInCode':
    'the two-factor step of a GitHub sign-in: its pending session is the authority, before any workspace',
};

/** Pages that are not pages of a workspace. */
const NOT_PAGES = new Set(['/[...missing]']);

interface Member {
  role: Role;
  email: string;
  cookie: string;
}

let workspaceId = '';
const members = {} as Record<Role, Member>;
let actions: BuiltAction[] = [];

function pageFiles(dir: string, rel = ''): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const relPath = rel ? `${rel}/${entry.name}` : entry.name;
    if (entry.isDirectory()) out.push(...pageFiles(path.join(dir, entry.name), relPath));
    else if (entry.name === 'page.tsx') out.push(relPath);
  }
  return out;
}

async function ruleOf(action: BuiltAction): Promise<DeclaredRule | undefined> {
  const loaded = (await import(/* @vite-ignore */ path.join(ROOT, action.filename))) as Record<
    string,
    { rule?: DeclaredRule }
  >;
  return loaded[action.exportedName]?.rule;
}

async function switchTo(cookie: string, target: string): Promise<void> {
  const action = actions.find((a) => a.exportedName === 'switchWorkspace');
  if (!action) throw new Error('switchWorkspace is not in the build');
  const result = await callAction(baseUrl(), action, cookie, { workspaceId: target });
  // A successful switch redirects to the overview (303 with the x-action-redirect header, or an RSC redirect).
  expect(result.text).not.toContain('"ok":false');
}

async function headerWorkspace(cookie: string, page = '/usage'): Promise<{ status: number; html: string }> {
  const response = await fetch(`${baseUrl()}${page}`, { headers: { cookie }, redirect: 'manual' });
  return { status: response.status, html: await response.text() };
}

beforeAll(async () => {
  actions = builtActions();
  const owner = `owner-${randomUUID()}@example.test`;
  const created = await createUserWithWorkspace({
    email: owner,
    password: PASSWORD,
    workspaceName: `Matrix ${randomUUID().slice(0, 6)}`,
  });
  workspaceId = created.workspace.id;
  members.owner = { role: 'owner', email: owner, cookie: await sessionCookie(baseUrl(), owner, PASSWORD) };
  for (const role of ROLES.filter((r) => r !== 'owner')) {
    const email = `${role}-${randomUUID()}@example.test`;
    // Each has a workspace of their own too (created first): the session must switch to the shared one.
    await createUserWithWorkspace({ email, password: PASSWORD, workspaceName: `${role}'s own` });
    await addMemberByEmail(workspaceId, email, role, OPERATOR);
    const cookie = await sessionCookie(baseUrl(), email, PASSWORD);
    await switchTo(cookie, workspaceId);
    members[role] = { role, email, cookie };
  }
}, 240_000);

describe('permission matrix: every server action × every role', () => {
  it('every action in the build declares its rule (or is a listed public action)', async () => {
    expect(actions.length).toBeGreaterThan(20);
    const missing: string[] = [];
    for (const action of actions) {
      const name = `${action.filename}#${action.exportedName}`;
      if (name in PUBLIC_ACTIONS) continue;
      const rule = await ruleOf(action);
      if (!rule) missing.push(name);
      else if (action.filename.startsWith('app/(portal)/')) expect(rule.permission, name).not.toBe('signed_in');
    }
    expect(
      missing,
      'actions without a rule: wrap them in withWorkspace({ permission }) (lib/portal/action.ts)',
    ).toEqual([]);
  });

  it('each role is refused exactly the actions the role table refuses it, over HTTP', async () => {
    const mismatches: string[] = [];
    let checked = 0;
    for (const action of actions) {
      const name = `${action.filename}#${action.exportedName}`;
      if (name in PUBLIC_ACTIONS) continue;
      const rule = await ruleOf(action);
      if (!rule) continue; // reported by the test above
      for (const role of ROLES) {
        const expectRefused = rule.permission !== 'signed_in' && !can(role, rule.permission);
        // An empty form: an allowed role gets past the role check and stops at validation (or a step-up).
        const result = await callAction(baseUrl(), action, members[role].cookie);
        checked++;
        if (result.refused !== expectRefused)
          mismatches.push(
            `${name} as ${role}: ${result.refused ? 'refused' : 'allowed'}, expected ${expectRefused ? 'refused' : 'allowed'} (HTTP ${result.status})`,
          );
      }
    }
    expect(mismatches).toEqual([]);
    expect(checked).toBeGreaterThan(80);
  }, 600_000);
});

describe('permission matrix: every portal page × every role', () => {
  const routes = pageFiles(PORTAL)
    .map(routeOf)
    .filter((route) => !NOT_PAGES.has(route));

  it('every portal page has a rule in PAGE_PERMISSIONS, and every rule a page', () => {
    expect(routes.filter((route) => !(route in PAGE_PERMISSIONS))).toEqual([]);
    expect(Object.keys(PAGE_PERMISSIONS).filter((route) => !routes.includes(route))).toEqual([]);
  });

  it('each role opens exactly the pages the role table gives it (403 otherwise)', async () => {
    const mismatches: string[] = [];
    for (const route of routes) {
      const url = route.replace(/\[[^\]]+\]/g, 'x');
      const permission = PAGE_PERMISSIONS[route as keyof typeof PAGE_PERMISSIONS];
      for (const role of ROLES) {
        const { status } = await headerWorkspace(members[role].cookie, url);
        const allowed = can(role, permission);
        // An allowed page with a placeholder id answers 404 (no such record); a refused one answers 403 before any lookup.
        const ok = allowed ? status === 200 || (route.includes('[') && status === 404) : status === 403;
        if (!ok) mismatches.push(`${route} as ${role}: HTTP ${status}, expected ${allowed ? 'allowed' : '403'}`);
      }
    }
    expect(mismatches).toEqual([]);
  }, 300_000);

  it('the navigation shows a role only the pages it may open', async () => {
    for (const role of ROLES) {
      const { html } = await headerWorkspace(members[role].cookie, '/');
      const nav = /<nav aria-label="Portal"[^>]*>([\s\S]*?)<\/nav>/.exec(html)?.[1] ?? '';
      expect(nav, role).not.toBe('');
      for (const [route, permission] of Object.entries(PAGE_PERMISSIONS)) {
        if (route.includes('[') || route.split('/').length > 2) continue; // nav links are top-level pages
        const linked = nav.includes(`href="${route}"`);
        expect(linked, `${role} ${route}`).toBe(can(role, permission));
      }
    }
  });
});

describe('the server refuses whatever the form says', () => {
  const action = (name: string) => {
    const found = actions.find((a) => a.exportedName === name);
    if (!found) throw new Error(`${name} is not in the build`);
    return found;
  };

  it('a Developer cannot create a live key, a live invoice or a live webhook endpoint, nor roll a live key', async () => {
    const dev = members.developer.cookie;
    expect(
      (
        await callAction(baseUrl(), action('createKey'), dev, {
          label: 'sneaky',
          environment: 'live',
          scopes: 'invoices:read',
        })
      ).refused,
    ).toBe(true);
    expect(
      (
        await callAction(baseUrl(), action('createPortalInvoice'), dev, {
          environment: 'live',
          amount: '1',
          currency: 'USDT',
          network: 'ethereum',
          expires_in: '3600',
        })
      ).refused,
    ).toBe(true);
    expect(
      (
        await callAction(baseUrl(), action('createEndpoint'), dev, {
          environment: 'live',
          url: 'https://example.com/hook',
        })
      ).refused,
    ).toBe(true);
    const { key } = await createApiKey(workspaceId, { label: 'live one', environment: 'live' }, OPERATOR);
    expect((await callAction(baseUrl(), action('rollKey'), dev, { keyId: String(key.id), grace: '0' })).refused).toBe(
      true,
    );
    expect((await callAction(baseUrl(), action('revokeKey'), dev, { keyId: String(key.id) })).refused).toBe(true);
    // …while a test key is theirs to make.
    const test = await callAction(baseUrl(), action('createKey'), dev, {
      label: 'dev key',
      environment: 'test',
      scopes: 'invoices:read',
    });
    expect(test.refused).toBe(false);
    expect(test.text).toContain('"ok":true');
  });

  it('an Admin cannot change the plan; a Viewer cannot invite', async () => {
    expect(
      (await callAction(baseUrl(), action('changePlan'), members.admin.cookie, { plan: 'Developer' })).refused,
    ).toBe(true);
    expect(
      (
        await callAction(baseUrl(), action('inviteMember'), members.viewer.cookie, {
          email: 'x@example.test',
          role: 'viewer',
        })
      ).refused,
    ).toBe(true);
  });

  it('switching to a workspace the user does not belong to is refused, and the session stays where it was', async () => {
    const stranger = await createUserWithWorkspace({
      email: `stranger-${randomUUID()}@example.test`,
      password: PASSWORD,
    });
    const result = await callAction(baseUrl(), action('switchWorkspace'), members.viewer.cookie, {
      workspaceId: stranger.workspace.id,
    });
    expect(result.text).toContain('"ok":false');
    const { html } = await headerWorkspace(members.viewer.cookie);
    expect(html).toMatch(/data-testid="workspace-name">Matrix /);
  });
});

describe('removing a member', () => {
  it('ends their access on their next request: their session falls back to their own workspace', async () => {
    const email = `leaving-${randomUUID()}@example.test`;
    const own = await createUserWithWorkspace({
      email,
      password: PASSWORD,
      workspaceName: `Leaver own ${randomUUID().slice(0, 6)}`,
    });
    await addMemberByEmail(workspaceId, email, 'admin', OPERATOR);
    const cookie = await sessionCookie(baseUrl(), email, PASSWORD);
    await switchTo(cookie, workspaceId);
    const before = await headerWorkspace(cookie, '/members');
    expect(before.status).toBe(200);
    expect(before.html).toContain(members.owner.email);

    const ownerUser = (await listMembers(workspaceId)).find((m) => m.role === 'owner')!;
    const session = await createSession(ownerUser.userId);
    const actor = { userId: ownerUser.userId, label: members.owner.email, ip: null, sessionId: session.id };
    await stepUp({ actor, password: PASSWORD });
    await removeMember(workspaceId, own.user.id, actor);

    const after = await headerWorkspace(cookie, '/members');
    expect(after.status).toBe(200);
    expect(after.html).not.toContain(members.owner.email);
    expect(after.html).toContain(own.workspace.name.replace(/'/g, '&#x27;'));
    // An action of the removed workspace's kind now acts on their own workspace only: the invitation list there.
    const invite = actions.find((a) => a.exportedName === 'inviteMember')!;
    const result = await callAction(baseUrl(), invite, cookie, {
      email: `x-${randomUUID()}@example.test`,
      role: 'viewer',
    });
    expect(result.text).toContain('"ok":true');
    const { listPendingInvitations } = await import('@/lib/teams/invitations');
    expect((await listPendingInvitations(workspaceId)).some((i) => i.invitedByLabel === email)).toBe(false);
    expect((await listPendingInvitations(own.workspace.id)).some((i) => i.invitedByLabel === email)).toBe(true);
  });

  it('a member with no other workspace is sent to create one', async () => {
    const { signUpWithInvitation, createInvitation } = await import('@/lib/teams/invitations');
    const email = `only-${randomUUID()}@example.test`;
    const { token } = await createInvitation(workspaceId, { email, role: 'viewer' }, OPERATOR);
    const joined = await signUpWithInvitation(token, PASSWORD, '198.51.100.36');
    const cookie = await sessionCookie(baseUrl(), email, PASSWORD);
    expect((await headerWorkspace(cookie, '/')).status).toBe(200);
    const user = (await listMembers(joined.workspaceId)).find((m) => m.email === email)!;
    await removeMember(workspaceId, user.userId, OPERATOR);
    const response = await fetch(`${baseUrl()}/`, { headers: { cookie }, redirect: 'manual' });
    expect([303, 307, 308]).toContain(response.status);
    expect(response.headers.get('location')).toContain('/workspaces/new');
  });
});
