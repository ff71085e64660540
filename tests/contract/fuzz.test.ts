import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENDPOINTS } from '@/lib/api/endpoints';
import { db } from '@/lib/db';
import { createInvoice } from '@/lib/invoices/invoices';
import { startAdditionalApp, type AppInstance } from '../setup/app';
import { createKey, seedAccount, VALID_INVOICE } from '../support/fixtures';
import { call } from '../support/http';

/**
 * Property-based fuzzing of every route through real HTTP. For each generated request: no 5xx, every error
 * is a problem document, every response matches the OpenAPI document (checked inside call()), and a rejected
 * request writes nothing.
 */
const SEED = 20261122;
const REFUSED_BEFORE_HANDLER = new Set([
  'missing_api_key',
  'invalid_api_key',
  'revoked_api_key',
  'plan_without_api_access',
  'missing_scope',
  'monthly_limit_exceeded',
  'rate_limited',
  'validation_failed',
  'malformed_json',
  'unsupported_media_type',
  'payload_too_large',
  'route_not_found',
  'method_not_allowed',
  'idempotency_key_reused',
  'idempotency_key_in_use',
]);
const RUNS = 400;

describe('contract fuzzing', () => {
  let instance: AppInstance;
  let keys: Record<'test' | 'live' | 'readOnly' | 'trial', string>;
  let workspaceId: string;
  let trialWorkspaceId: string;
  let invoiceIds: string[];

  beforeAll(async () => {
    instance = await startAdditionalApp({ env: { PLAN_BUSINESS_RATE_LIMIT: '100000' } });
    const account = await seedAccount({ plan: 'Business' });
    const trial = await seedAccount({ plan: 'Trial' });
    workspaceId = account.workspace.id;
    trialWorkspaceId = trial.workspace.id;
    keys = {
      test: account.secret,
      live: (await createKey(workspaceId, { environment: 'live' })).secret,
      readOnly: (await createKey(workspaceId, { scopes: ['invoices:read'] })).secret,
      trial: trial.secret,
    };
    invoiceIds = [];
    for (let i = 0; i < 5; i++)
      invoiceIds.push(
        (await createInvoice({ workspaceId, environment: 'test' }, { ...VALID_INVOICE, expires_in: 3600 })).id,
      );
  });
  afterAll(async () => {
    await instance?.stop();
  });

  const printable = (max: number) =>
    fc.string({ maxLength: max, unit: fc.integer({ min: 0x21, max: 0x7e }).map((c) => String.fromCharCode(c)) });

  const headerVariant = fc.oneof(
    { arbitrary: fc.constant({ kind: 'key:test' }), weight: 6 },
    fc.constantFrom('live', 'readOnly', 'trial').map((name) => ({ kind: `key:${name}` })),
    fc.record({
      kind: fc.constant('bearer'),
      scheme: fc.constantFrom('Bearer', 'bearer', 'BEARER', 'bEaReR'),
      space: fc.constantFrom(' ', '  ', '\t'),
    }),
    fc.constant({ kind: 'missing' }),
    fc.record({ kind: fc.constant('garbage'), value: printable(60) }),
    fc.record({ kind: fc.constant('mutated'), at: fc.nat({ max: 40 }), char: fc.constantFrom('A', 'z', '0', '_') }),
    fc.record({ kind: fc.constant('both'), value: printable(60) }),
  );

  const amount = fc.oneof(
    fc.constantFrom('10.50', '0', '-1', '1e3', '0.0000001', '99999999999999999999999', ' 1', '1.', '.5', '007'),
    fc.stringMatching(/^\d{1,22}(\.\d{0,20})?$/),
  );
  // Text a client may send inside JSON strings: any code point, lone surrogates, NUL and other controls.
  const hostileText = (max: number) =>
    fc.oneof(
      fc.string({ maxLength: max }),
      fc.string({ maxLength: max, unit: 'binary' }),
      fc.constantFrom('\u0000', 'a\u0000b', '\ud800', 'x\udfff', '\udbff\udfff', '\u202e\u0007\u001b', '😀'),
    );
  const validishBody = fc.record(
    {
      amount,
      currency: fc.constantFrom('USDT', 'USDC', 'ETH', 'BTC', 'usdt', 'DOGE'),
      network: fc.constantFrom('ethereum', 'polygon', 'base', 'tron', 'bitcoin', 'solana'),
      description: fc.string({ maxLength: 520 }),
      metadata: fc.dictionary(fc.string({ maxLength: 45 }), fc.string({ maxLength: 10 }), { maxKeys: 22 }),
      order_id: fc.string({ maxLength: 130 }),
      expires_in: fc.oneof(fc.integer({ min: 0, max: 700000 }), fc.double()),
    },
    { requiredKeys: ['amount', 'currency', 'network'] },
  );
  const mutatedBody = fc
    .tuple(
      fc.constantFrom(
        'amount',
        'currency',
        'network',
        'description',
        'metadata',
        'order_id',
        'expires_in',
        'mode',
        'environment',
        'extra',
      ),
      fc.jsonValue({ maxDepth: 2 }),
      fc.boolean(),
    )
    .map(([field, value, remove]) => {
      const body: Record<string, unknown> = { ...VALID_INVOICE };
      if (remove) delete body[field];
      else body[field] = value;
      return body;
    });
  const validBody = fc.record(
    {
      amount: fc.stringMatching(/^[1-9]\d{0,5}(\.\d{1,6})?$/),
      currency: fc.constant('USDT'),
      network: fc.constantFrom('ethereum', 'polygon', 'tron'),
      description: hostileText(100),
      metadata: fc.dictionary(
        hostileText(10).filter((key) => key.length > 0),
        hostileText(10),
        { maxKeys: 3 },
      ),
      order_id: hostileText(20).filter((id) => id.length > 0),
      expires_in: fc.integer({ min: 300, max: 604800 }),
    },
    { requiredKeys: ['amount', 'currency', 'network'] },
  );
  const body = fc.oneof(
    { arbitrary: validBody.map((value) => ({ json: value as unknown })), weight: 3 },
    validishBody.map((value) => ({ json: value as unknown })),
    mutatedBody.map((value) => ({ json: value as unknown })),
    fc.jsonValue({ maxDepth: 3 }).map((value) => ({ json: value })),
    fc.string({ maxLength: 200 }).map((raw) => ({ raw })),
    fc.constant({ raw: JSON.stringify({ ...VALID_INVOICE, description: 'x'.repeat(70 * 1024) }) }),
    fc.constant({}),
  );

  const pathId = fc.oneof(
    fc.nat({ max: 4 }).map((i) => ({ existing: i })),
    fc.string({ maxLength: 40 }).map((s) => ({ raw: s })),
    fc.stringMatching(/^inv_[0-9A-Za-z]{24}$/).map((s) => ({ raw: s })),
    // Sent as is, not encoded: malformed percent-encoding such as %E0%A4%A or a bare %.
    fc
      .oneof(
        fc.constantFrom('%', '%E0%A4%A', '%zz', '%C3', 'inv_%', '%00', '%2F'),
        fc.stringMatching(/^[A-Za-z0-9_%]{1,12}$/),
      )
      .map((s) => ({ verbatim: s })),
  );
  // Defined and unknown query parameters on every route (one rule: unknown → 400 validation_failed).
  const query = fc.dictionary(
    fc.oneof(fc.constantFrom('limit', 'status', 'starting_after', 'api_key', 'expand'), fc.string({ maxLength: 8 })),
    fc.string({ maxLength: 30 }),
    { maxKeys: 3 },
  );

  // Every operation of the registry (new endpoints join the fuzz by themselves), plus methods and paths that name none.
  const route = fc.constantFrom(
    ...ENDPOINTS.map((endpoint) => ({ method: endpoint.method as string, path: endpoint.path })),
    { method: 'GET', path: '/v1/openapi.json' },
    { method: 'DELETE', path: '/v1/invoices/{id}' },
    { method: 'PATCH', path: '/v1/invoices' },
    { method: 'PUT', path: '/v1/invoices/{id}/cancel' },
    { method: 'POST', path: '/v1/openapi.json' },
    { method: 'OPTIONS', path: '/v1/invoices/{id}' },
    { method: 'OPTIONS', path: '/v1/me' },
    { method: 'HEAD', path: '/v1/invoices' },
    { method: 'HEAD', path: '/v1/invoices/{id}/cancel' },
    { method: 'GET', path: '/v1/unknown/{id}' },
  );

  const contentType = fc.option(
    fc.constantFrom(
      'application/json',
      'application/json; charset=utf-8',
      'APPLICATION/JSON',
      'text/plain',
      'text/plain; charset=utf-8',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      'application/xml',
      'application/merge-patch+json',
      'application/jsonx',
      '',
    ),
    { nil: undefined },
  );
  const request = fc.record({
    route,
    header: headerVariant,
    body,
    pathId,
    query,
    contentType,
    idempotencyKey: fc.option(printable(300), { nil: undefined }),
  });

  async function snapshot() {
    const [invoices, changed, usage, trialUsage, idempotency] = await Promise.all([
      db().invoice.count({ where: { workspaceId } }),
      db().invoice.count({ where: { workspaceId, NOT: { status: 'pending' } } }),
      db().usageMonthly.aggregate({ where: { workspaceId }, _sum: { count: true } }),
      db().usageMonthly.aggregate({ where: { workspaceId: trialWorkspaceId }, _sum: { count: true } }),
      db().idempotencyRecord.count({ where: { workspaceId } }),
    ]);
    return { invoices, changed, usage: usage._sum.count ?? 0, trialUsage: trialUsage._sum.count ?? 0, idempotency };
  }

  it(`${RUNS} generated requests: no 5xx, problems everywhere, the document holds, rejected requests write nothing`, async () => {
    const distinct = new Set<string>();
    const statuses = new Map<number, number>();
    let sent = 0;

    await fc.assert(
      fc.asyncProperty(request, async (input) => {
        distinct.add(JSON.stringify(input));
        const headers: Record<string, string> = {};
        const h = input.header as {
          kind: string;
          scheme?: string;
          space?: string;
          value?: string;
          at?: number;
          char?: string;
        };
        if (h.kind.startsWith('key:')) headers['X-API-Key'] = keys[h.kind.slice(4) as keyof typeof keys];
        if (h.kind === 'bearer') headers.Authorization = `${h.scheme}${h.space}${keys.test}`;
        if (h.kind === 'garbage') headers['X-API-Key'] = h.value ?? '';
        if (h.kind === 'mutated') {
          const at = Math.min(h.at ?? 0, keys.test.length - 1);
          headers['X-API-Key'] = keys.test.slice(0, at) + (h.char ?? 'A') + keys.test.slice(at + 1);
        }
        if (h.kind === 'both') {
          headers['X-API-Key'] = h.value ?? '';
          headers.Authorization = `Bearer ${keys.test}`;
        }
        if (input.idempotencyKey !== undefined) headers['Idempotency-Key'] = input.idempotencyKey;
        if (input.contentType !== undefined) headers['Content-Type'] = input.contentType;

        const id =
          'existing' in input.pathId
            ? invoiceIds[input.pathId.existing]!
            : 'verbatim' in input.pathId
              ? input.pathId.verbatim
              : encodeURIComponent(input.pathId.raw) || 'x';
        const search = new URLSearchParams(input.query).toString();
        const path = input.route.path.replace('{id}', id) + (search ? `?${search}` : '');
        const options: { headers: Record<string, string>; body?: unknown; rawBody?: string; base: string } = {
          headers,
          base: instance.baseUrl,
        };
        const bodyless = input.route.method === 'GET' || input.route.method === 'HEAD';
        if (!bodyless && 'json' in input.body) options.body = input.body.json;
        if (!bodyless && 'raw' in input.body) {
          options.rawBody = input.body.raw;
          headers['Content-Type'] ??= 'application/json';
        }

        const before = await snapshot();
        const result = await call(input.route.method, path, options);
        sent++;
        statuses.set(result.status, (statuses.get(result.status) ?? 0) + 1);
        const after = await snapshot();

        expect(result.status, `${input.route.method} ${path} → ${result.text.slice(0, 300)}`).toBeLessThan(500);
        const sentBody = options.rawBody ?? (options.body !== undefined ? JSON.stringify(options.body) : '');
        // call() declares JSON bodies application/json unless the input chose a Content-Type.
        const declared = headers['Content-Type'] ?? (options.body !== undefined ? 'application/json' : '');
        const mediaType = declared.split(';')[0]!.trim().toLowerCase();
        // A body that is not declared application/json is never processed: 415, or refused earlier (auth, 413).
        if (result.status < 400 && input.route.method === 'POST' && sentBody.trim() !== '')
          expect(mediaType).toBe('application/json');
        if (result.status === 415) expect(mediaType).not.toBe('application/json');
        // Unknown query parameters never reach a handler.
        const known = new Set(
          Object.keys(
            (
              ENDPOINTS.find((e) => e.path === input.route.path && e.method === input.route.method)?.query as
                { shape?: object } | undefined
            )?.shape ?? {},
          ),
        );
        if (input.route.method !== 'OPTIONS' && Object.keys(input.query).some((name) => !known.has(name)))
          expect(result.status).toBeGreaterThanOrEqual(400);
        expect(result.headers.get('request-id')).toMatch(/^req_/);
        if (result.status >= 400) {
          expect(result.headers.get('content-type')).toMatch(/^application\/problem\+json/);
          if (input.route.method === 'HEAD') return; // no body to check
          expect(result.json).toMatchObject({
            status: result.status,
            code: expect.any(String),
            title: expect.any(String),
            detail: expect.any(String),
          });
          expect(new URL(result.json.type).pathname + new URL(result.json.type).hash).toBe(
            `/docs/errors#${result.json.code}`,
          );
          // A replayed refusal keeps the request_id of the request that produced it; any other names this request.
          if (result.headers.get('idempotent-replayed') !== 'true')
            expect(result.json.request_id).toBe(result.headers.get('request-id'));
          expect({ invoices: after.invoices, changed: after.changed }).toEqual({
            invoices: before.invoices,
            changed: before.changed,
          });
          // Refused before the handler ran: not even an Idempotency-Key record is left behind.
          if (REFUSED_BEFORE_HANDLER.has(result.json.code)) expect(after.idempotency).toBe(before.idempotency);
          if (
            result.status === 401 ||
            ['plan_without_api_access', 'method_not_allowed', 'route_not_found'].includes(result.json.code)
          ) {
            expect(after.usage).toBe(before.usage);
            expect(after.trialUsage).toBe(before.trialUsage);
          }
        }
      }),
      { seed: SEED, numRuns: RUNS, endOnFailure: true },
    );

    console.log(
      `fuzz: ${sent} requests sent, ${distinct.size} distinct inputs, statuses ${JSON.stringify(Object.fromEntries([...statuses].sort()))}`,
    );
    expect(sent).toBe(RUNS);
  }, 180_000);
});
