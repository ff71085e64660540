import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { call, expectProblem } from '../support/http';

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, '..', '..');

/** The operator CLI, run as a process against the test database (DATABASE_URL), as an operator would. */
async function admin(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [path.join(ROOT, 'node_modules/tsx/dist/cli.mjs'), 'scripts/admin.ts', ...args], {
      cwd: ROOT,
      env: { ...process.env },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

// Each command is a process that starts tsx and checks migrations: slow on a loaded machine, never timing-dependent.
describe('admin CLI', { timeout: 240_000 }, () => {
  it('creates a user, sets the plan, creates a key that works on /v1, sets a wallet and revokes the key', async () => {
    const email = `ops-${Date.now()}@example.test`;
    const created = await admin('user:create', '--email', email, '--password', 'a long password', '--workspace', 'Ops', '--json');
    expect(created.code, created.stderr).toBe(0);
    const user = JSON.parse(created.stdout);
    expect(user).toEqual({ user: { id: expect.stringMatching(/^usr_/), email }, workspace: { id: expect.stringMatching(/^ws_/), name: 'Ops' }, plan: 'Trial' });

    const plan = await admin('plan:set', '--workspace', user.workspace.id, '--plan', 'Developer', '--json');
    expect(JSON.parse(plan.stdout).workspace.plan).toBe('Developer');

    const keyResult = await admin('key:create', '--workspace', user.workspace.id, '--label', 'ops key', '--env', 'live', '--scopes', 'invoices:read', '--json');
    const key = JSON.parse(keyResult.stdout);
    expect(key).toEqual({ id: expect.any(Number), label: 'ops key', prefix: expect.stringMatching(/^live_/), environment: 'live', scopes: ['invoices:read'], secret: expect.stringMatching(/^live_/) });
    const me = await call('GET', '/v1/me', { key: key.secret });
    expect(me.json.key).toEqual({ id: key.id, label: 'ops key', prefix: key.prefix, environment: 'live', scopes: ['invoices:read'] });

    const wallet = await admin('wallet:set', '--workspace', user.workspace.id, '--network', 'tron', '--address', 'TJRabPrwbZy45sbavfcjinPJC18kjpRTv8', '--json');
    expect(JSON.parse(wallet.stdout)).toEqual({ workspace_id: user.workspace.id, network: 'tron', address: 'TJRabPrwbZy45sbavfcjinPJC18kjpRTv8' });

    const revoked = await admin('key:revoke', '--id', String(key.id), '--json');
    expect(JSON.parse(revoked.stdout)).toMatchObject({ id: key.id, revoked_at: expect.any(String) });
    expectProblem(await call('GET', '/v1/me', { key: key.secret }), 401, 'revoked_api_key');
  });

  it('errors exit non-zero with a clear message and print no secret', async () => {
    const badPlan = await admin('plan:set', '--workspace', 'ws_nope', '--plan', 'Gold');
    expect(badPlan.code).toBe(2);
    expect(badPlan.stderr).toContain('Unknown plan Gold');
    const missing = await admin('plan:set', '--workspace', 'ws_nope', '--plan', 'Business', '--json');
    expect(missing.code).toBe(1);
    expect(JSON.parse(missing.stdout).error.message).toContain('Workspace ws_nope not found');
    const badWallet = await admin('wallet:set', '--workspace', 'ws_nope', '--network', 'ethereum', '--address', '0x123');
    expect(badWallet.code).toBe(1);
    expect(badWallet.stderr).toMatch(/40 hexadecimal/);
    const unknown = await admin('frobnicate');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('Unknown command frobnicate');
  });
});

describe('admin CLI: webhooks', { timeout: 240_000 }, () => {
  it('webhook:create prints the secret once; webhook:list never prints a secret; refused URLs and unknown events exit non-zero', async () => {
    const created = JSON.parse((await admin('user:create', '--email', `hooks-${Date.now()}@example.test`, '--password', 'a long password', '--json')).stdout);
    const workspace = created.workspace.id as string;

    const hook = await admin('webhook:create', '--workspace', workspace, '--env', 'live', '--url', 'https://93.184.215.14/hooks', '--events', 'invoice.paid,invoice.created', '--description', 'Orders', '--json');
    expect(hook.code, hook.stderr).toBe(0);
    const endpoint = JSON.parse(hook.stdout);
    expect(endpoint).toEqual({
      id: expect.stringMatching(/^we_/),
      url: 'https://93.184.215.14/hooks',
      description: 'Orders',
      environment: 'live',
      event_types: ['invoice.created', 'invoice.paid'],
      status: 'enabled',
      disabled_reason: null,
      created_at: expect.any(String),
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/),
    });
    const text = await admin('webhook:create', '--workspace', workspace, '--env', 'test', '--url', 'http://93.184.215.14/test');
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toMatch(/whsec_\S+/);
    expect(text.stdout).toContain('shown once');
    const textSecret = /whsec_\S+/.exec(text.stdout)![0];

    const list = await admin('webhook:list', '--workspace', workspace, '--json');
    expect(list.code, list.stderr).toBe(0);
    const listed = JSON.parse(list.stdout);
    expect(listed.endpoints).toHaveLength(2);
    expect(listed.endpoints.find((e: { id: string }) => e.id === endpoint.id)).toEqual({ ...endpoint, secret: undefined });
    const plain = await admin('webhook:list', '--workspace', workspace);
    for (const output of [list.stdout, list.stderr, plain.stdout, plain.stderr]) {
      expect(output).not.toContain('whsec_');
      expect(output).not.toContain(endpoint.secret.slice(6, 30));
      expect(output).not.toContain(textSecret.slice(6, 30));
    }
    expect(plain.stdout).toContain(endpoint.id);

    const refused = await admin('webhook:create', '--workspace', workspace, '--env', 'test', '--url', 'http://127.0.0.1:9/hooks', '--json');
    expect(refused.code).toBe(1);
    expect(JSON.parse(refused.stdout).error).toMatchObject({ code: 'webhook_url_refused', message: expect.stringContaining('not a public address') });
    const badEvent = await admin('webhook:create', '--workspace', workspace, '--env', 'test', '--url', 'http://93.184.215.14/x', '--events', 'invoice.eaten');
    expect(badEvent.code).toBe(2);
    expect(badEvent.stderr).toContain('Unknown event type(s) invoice.eaten');
    const noWorkspace = await admin('webhook:list', '--workspace', 'ws_nope', '--json');
    expect(noWorkspace.code).toBe(1);
    expect(JSON.parse(noWorkspace.stdout).error.message).toContain('Workspace ws_nope not found');
  });
});
