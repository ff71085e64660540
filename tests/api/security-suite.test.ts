import { beforeAll, describe, expect, it } from 'vitest';
import { ENDPOINTS } from '@/lib/api/endpoints';
import { createInvoice } from '@/lib/invoices/invoices';
import { revokeApiKey } from '@/lib/keys/keys';
import { generateSecret } from '@/lib/keys/api-key-secret';
import type { Scope } from '@/lib/scopes';
import { createKey, monthlyCount, seedAccount, VALID_INVOICE } from '../support/fixtures';
import { call, expectProblem } from '../support/http';

/**
 * One security suite, applied to every /v1 operation: the order of checks of docs/api.md and tenant and
 * environment isolation. A rejected request must never be counted nor change anything.
 */
interface RouteCase {
  name: string;
  method: 'GET' | 'POST';
  path: (invoiceId: string) => string;
  scope: Scope | null;
  body?: unknown;
  /** The route takes an invoice id, so isolation means 404 for another tenant's or environment's invoice. */
  byId: boolean;
}

const ROUTES: RouteCase[] = [
  { name: 'GET /v1/me', method: 'GET', path: () => '/v1/me', scope: null, byId: false },
  { name: 'GET /v1/invoices', method: 'GET', path: () => '/v1/invoices', scope: 'invoices:read', byId: false },
  {
    name: 'POST /v1/invoices',
    method: 'POST',
    path: () => '/v1/invoices',
    scope: 'invoices:write',
    body: VALID_INVOICE,
    byId: false,
  },
  {
    name: 'GET /v1/invoices/{id}',
    method: 'GET',
    path: (id) => `/v1/invoices/${id}`,
    scope: 'invoices:read',
    byId: true,
  },
  {
    name: 'POST /v1/invoices/{id}/cancel',
    method: 'POST',
    path: (id) => `/v1/invoices/${id}/cancel`,
    scope: 'invoices:write',
    byId: true,
  },
  {
    name: 'POST /v1/test/invoices/{id}/simulate-payment',
    method: 'POST',
    path: (id) => `/v1/test/invoices/${id}/simulate-payment`,
    scope: 'invoices:write',
    byId: true,
  },
  // Event routes: authentication, scope and the query rule (event isolation is tested in the events suites).
  { name: 'GET /v1/events', method: 'GET', path: () => '/v1/events', scope: 'invoices:read', byId: false },
  {
    name: 'GET /v1/events/{id}',
    method: 'GET',
    path: () => '/v1/events/evt_000000000000000000000000',
    scope: 'invoices:read',
    byId: false,
  },
  // Rates are no tenant's data; the route is held to the same checks (its answer is in tests/rates).
  {
    name: 'GET /v1/rates',
    method: 'GET',
    path: () => '/v1/rates?currency=USDT&price_currency=EUR',
    scope: 'invoices:read',
    byId: false,
  },
];

describe('security suite coverage', () => {
  it('covers every operation of the registry', () => {
    expect(ROUTES.map((route) => route.name).sort()).toEqual(
      ENDPOINTS.map((endpoint) => `${endpoint.method} ${endpoint.path}`).sort(),
    );
  });
});

function otherScope(scope: Scope): Scope {
  return scope === 'invoices:read' ? 'invoices:write' : 'invoices:read';
}

for (const route of ROUTES) {
  describe(`security: ${route.name}`, () => {
    let owner: Awaited<ReturnType<typeof seedAccount>>;
    let invoiceId: string;
    const send = (key: string | undefined, headers: Record<string, string> = {}) =>
      call(route.method, route.path(invoiceId), { key, headers, body: route.body });

    beforeAll(async () => {
      owner = await seedAccount({ plan: 'Business', environment: 'test' });
      invoiceId = (
        await createInvoice(
          { workspaceId: owner.workspace.id, environment: 'test' },
          { ...VALID_INVOICE, expires_in: 3600 },
        )
      ).id;
    });

    it('no key → 401 missing_api_key with a Bearer challenge', async () => {
      const result = await send(undefined);
      expectProblem(result, 401, 'missing_api_key');
      expect(result.headers.get('www-authenticate')).toBe('Bearer realm="api"');
    });

    it('malformed key → 401 invalid_api_key', async () => {
      for (const bad of [
        'test_short',
        'prod_' + 'a'.repeat(36),
        owner.secret + 'x',
        owner.secret.replace('_', '-'),
        'test_' + '!'.repeat(36),
      ]) {
        const result = await send(bad);
        expectProblem(result, 401, 'invalid_api_key');
        expect(result.headers.get('www-authenticate')).toBe('Bearer realm="api", error="invalid_token"');
      }
    });

    it('bad checksum → 401 invalid_api_key', async () => {
      const last = owner.secret.at(-1) === 'a' ? 'b' : 'a';
      expectProblem(await send(owner.secret.slice(0, -1) + last), 401, 'invalid_api_key');
    });

    it('well-formed unknown key → 401 invalid_api_key', async () => {
      expectProblem(await send(generateSecret('test').secret), 401, 'invalid_api_key');
    });

    it('revoked key → 401 revoked_api_key, not counted', async () => {
      const { key, secret } = await createKey(owner.workspace.id);
      await revokeApiKey(key.id, owner.workspace.id);
      const before = await monthlyCount(owner.workspace.id);
      const result = await send(secret);
      expectProblem(result, 401, 'revoked_api_key');
      expect(await monthlyCount(owner.workspace.id)).toBe(before);
    });

    for (const plan of ['Trial', 'Merchant'] as const) {
      it(`${plan} plan → 403 plan_without_api_access, not counted`, async () => {
        const account = await seedAccount({ plan });
        const result = await send(account.secret);
        const problem = expectProblem(result, 403, 'plan_without_api_access');
        expect(problem.detail).toContain(plan);
        expect(await monthlyCount(account.workspace.id)).toBe(0);
      });
    }

    if (route.scope) {
      const scope = route.scope;
      it(`key without ${scope} → 403 missing_scope with the exact message`, async () => {
        const { secret } = await createKey(owner.workspace.id, { scopes: [otherScope(scope)] });
        const result = await send(secret);
        const problem = expectProblem(result, 403, 'missing_scope');
        expect(problem.detail).toBe(`API key scope ${scope} is required`);
        // RFC 6750 §3: the challenge names the missing scope.
        expect(result.headers.get('www-authenticate')).toBe(
          `Bearer realm="api", error="insufficient_scope", scope="${scope}"`,
        );
      });
    } else {
      it('needs no scope: a key with either single scope is accepted', async () => {
        for (const scope of ['invoices:read', 'invoices:write'] as const) {
          const { secret } = await createKey(owner.workspace.id, { scopes: [scope] });
          expect((await send(secret)).status).toBe(200);
        }
      });
    }

    it('an unknown query parameter → 400 validation_failed naming it, nothing counted as a success', async () => {
      const separator = route.path(invoiceId).includes('?') ? '&' : '?';
      const result = await call(route.method, `${route.path(invoiceId)}${separator}expand=all&api_key=x`, {
        key: owner.secret,
        body: route.body,
      });
      const problem = expectProblem(result, 400, 'validation_failed');
      expect(problem.errors?.map((error) => error.path).sort()).toEqual(['api_key', 'expand']);
      expect(problem.errors?.[0]?.message).toMatch(/^Unknown field /);
    });

    if (route.byId) {
      it("another workspace's invoice → 404 invoice_not_found", async () => {
        const stranger = await seedAccount({ plan: 'Business', environment: 'test' });
        expectProblem(await send(stranger.secret), 404, 'invoice_not_found');
      });

      it("another environment's invoice → 404 (or 403 test_mode_only for the simulator)", async () => {
        const { secret } = await createKey(owner.workspace.id, { environment: 'live' });
        const result = await send(secret);
        if (route.path('x').includes('simulate-payment')) expectProblem(result, 403, 'test_mode_only');
        else expectProblem(result, 404, 'invoice_not_found');
      });

      it('the invoice is untouched by every rejected request', async () => {
        const result = await call('GET', `/v1/invoices/${invoiceId}`, { key: owner.secret });
        expect(result.status).toBe(200);
        expect(result.json.status).toBe('pending');
      });
    }
  });
}

describe('security: listing is isolated by workspace and environment', () => {
  it('a key lists only its own workspace and environment', async () => {
    const a = await seedAccount({ plan: 'Business', environment: 'test' });
    const aLive = await createKey(a.workspace.id, { environment: 'live' });
    const b = await seedAccount({ plan: 'Business', environment: 'test' });
    const aTest = await createInvoice(
      { workspaceId: a.workspace.id, environment: 'test' },
      { ...VALID_INVOICE, expires_in: 3600 },
    );
    const bTest = await createInvoice(
      { workspaceId: b.workspace.id, environment: 'test' },
      { ...VALID_INVOICE, expires_in: 3600 },
    );

    const listA = await call('GET', '/v1/invoices', { key: a.secret });
    expect(listA.json.data.map((i: { id: string }) => i.id)).toEqual([aTest.id]);
    const listALive = await call('GET', '/v1/invoices', { key: aLive.secret });
    expect(listALive.json.data).toEqual([]);
    const listB = await call('GET', '/v1/invoices', { key: b.secret });
    expect(listB.json.data.map((i: { id: string }) => i.id)).toEqual([bTest.id]);
    // Another tenant's (or environment's) invoice positions nothing: the cursor is looked up in the key's scope.
    for (const [key, cursor] of [
      [a.secret, bTest.id],
      [aLive.secret, aTest.id],
    ] as const) {
      const problem = expectProblem(
        await call('GET', `/v1/invoices?starting_after=${cursor}`, { key }),
        400,
        'validation_failed',
      );
      expect(problem.errors?.[0]?.path).toBe('starting_after');
    }
  });
});
