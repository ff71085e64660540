import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_FAILURES_PER_EMAIL_AND_ADDRESS } from '@/lib/auth/throttle';
import { createUserWithWorkspace } from '@/lib/workspaces/workspaces';
import { startAdditionalApp, type AppInstance } from '../setup/app';
import { baseUrl } from '../support/http';
import { portalSignIn as signIn } from '../support/portal-sign-in';

const PASSWORD = 'correct horse battery';
const HTTPS_PUBLIC_URL = 'https://portal.example.test';

async function newUser(): Promise<string> {
  const email = `http-auth-${randomUUID()}@example.test`;
  await createUserWithWorkspace({ email, password: PASSWORD });
  return email;
}

describe('portal sign-in over HTTP, behind no proxy (TRUSTED_PROXY_HOPS=0)', () => {
  it('a forged X-Forwarded-For does not reset the per-address throttle: the server appends the socket address', async () => {
    const email = await newUser();
    for (let i = 0; i < MAX_FAILURES_PER_EMAIL_AND_ADDRESS; i++) {
      const result = await signIn(baseUrl(), email, `wrong ${i}`, { 'X-Forwarded-For': `198.51.100.${i + 1}` });
      expect(result.outcome).toBe('invalid');
    }
    const forged = await signIn(baseUrl(), email, PASSWORD, { 'X-Forwarded-For': '203.0.113.77' });
    expect(forged.outcome).toBe('throttled');
  });

  it('X-Forwarded-Host cannot change a redirect: next-auth builds them from PUBLIC_URL', async () => {
    const response = await fetch(`${baseUrl()}/api/auth/signin`, {
      redirect: 'manual',
      headers: { 'X-Forwarded-Host': 'evil.example', 'X-Forwarded-Proto': 'https' },
    });
    expect(response.status).toBe(302);
    const location = response.headers.get('location') ?? '';
    expect(location).not.toContain('evil.example');
    // Without PUBLIC_URL → NEXTAUTH_URL this was /signin?callbackUrl=http://evil.example.
    const target = new URL(location, baseUrl());
    expect(target.pathname).toBe('/signin');
    expect(target.searchParams.get('callbackUrl')).toBe(baseUrl());
  });

  it("next-auth's own pages carry the security headers: the sign-out page cannot be framed", async () => {
    for (const path of ['/api/auth/signout', '/signin']) {
      const response = await fetch(`${baseUrl()}${path}`);
      expect(response.status, path).toBe(200);
      expect(response.headers.get('x-frame-options'), path).toBe('DENY');
      const csp = response.headers.get('content-security-policy') ?? '';
      expect(csp, path).toContain("frame-ancestors 'none'");
      expect(csp, path).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]+' 'strict-dynamic'/);
      expect(response.headers.get('x-content-type-options'), path).toBe('nosniff');
      expect(response.headers.get('referrer-policy'), path).toBe('same-origin');
      expect(response.headers.get('permissions-policy'), path).toContain('camera=()');
      // http PUBLIC_URL: no HSTS, cookies without Secure.
      expect(response.headers.get('strict-transport-security'), path).toBeNull();
    }
    const signin = await fetch(`${baseUrl()}/signin`);
    const nonce = /'nonce-([^']+)'/.exec(signin.headers.get('content-security-policy') ?? '')?.[1];
    const html = await signin.text();
    // Every script Next renders carries this response's nonce.
    const scripts = html.match(/<script\b[^>]*>/g) ?? [];
    expect(scripts.length).toBeGreaterThan(0);
    for (const tag of scripts) expect(tag).toContain(`nonce="${nonce}"`);
  });
});

describe('behind one trusted proxy (TRUSTED_PROXY_HOPS=1), with an https PUBLIC_URL', () => {
  let app: AppInstance;
  beforeAll(async () => {
    app = await startAdditionalApp({ env: { TRUSTED_PROXY_HOPS: '1', PUBLIC_URL: HTTPS_PUBLIC_URL } });
  });
  afterAll(async () => {
    await app?.stop();
  });

  it("the proxy's X-Forwarded-For entry is the client: one client is throttled, another is not", async () => {
    const email = await newUser();
    const guesser = { 'X-Forwarded-For': '198.51.100.20' };
    for (let i = 0; i < MAX_FAILURES_PER_EMAIL_AND_ADDRESS; i++)
      expect((await signIn(app.baseUrl, email, `wrong ${i}`, guesser)).outcome).toBe('invalid');
    expect((await signIn(app.baseUrl, email, PASSWORD, guesser)).outcome).toBe('throttled');
    expect((await signIn(app.baseUrl, email, PASSWORD, { 'X-Forwarded-For': '198.51.100.21' })).outcome).toBe('ok');
  });

  it('session cookies are Secure with __Host-/__Secure- names and HSTS is sent, whatever X-Forwarded-Proto says', async () => {
    const email = await newUser();
    const result = await signIn(app.baseUrl, email, PASSWORD, {
      'X-Forwarded-For': '198.51.100.30',
      'X-Forwarded-Proto': 'http',
    });
    expect(result.outcome).toBe('ok');
    const csrf = result.csrfCookies.find((c) => c.includes('csrf-token')) ?? '';
    expect(csrf).toMatch(/^__Host-next-auth\.csrf-token=/);
    expect(csrf).toMatch(/;\s*Secure/i);
    const session = result.cookies.find((c) => c.includes('session-token')) ?? '';
    expect(session).toMatch(/^__Secure-next-auth\.session-token=/);
    expect(session).toMatch(/;\s*Secure/i);
    expect(session).toMatch(/;\s*HttpOnly/i);
    for (const path of ['/signin', '/api/auth/signout', '/v1/me']) {
      const response = await fetch(`${app.baseUrl}${path}`, { headers: { 'X-Forwarded-Proto': 'http' } });
      expect(response.headers.get('strict-transport-security'), path).toMatch(/^max-age=\d+/);
    }
    const redirect = await fetch(`${app.baseUrl}/api/auth/signin`, {
      redirect: 'manual',
      headers: { 'X-Forwarded-Host': 'evil.example' },
    });
    expect(new URL(redirect.headers.get('location') ?? '', app.baseUrl).searchParams.get('callbackUrl')).toBe(
      HTTPS_PUBLIC_URL,
    );
  });
});
