import { describe, expect, it } from 'vitest';
import { admin, adminProcess, adminWith } from '../support/admin-cli';
import { call, expectProblem } from '../support/http';
import { createApiKey, revokeApiKey } from '@/lib/keys/keys';
import { createUserWithWorkspace } from '@/lib/workspaces/workspaces';
import { EXAMPLE_XPUB } from '../../scripts/chain/bitcoin-node';

// Most cases call the CLI's run function in this process (tests/support/admin-cli.ts); one reads a real standard
// input, and those needing a setting the domain modules read (lib/env) run the CLI as the operator's process.
const CLI_TEST_TIMEOUT_MS = 240_000;

/** The CLI as a process, with `input` on standard input and extra environment. */
const adminWithInput = (input: string, env: Record<string, string>, ...args: string[]) =>
  adminProcess(args, { input, env });

describe('admin CLI: user:create keeps the password off the command line', () => {
  it(
    '--password-stdin and ADMIN_USER_PASSWORD create a user who can sign in; --password still works but warns',
    async () => {
      const { verifyCredentials } = await import('@/lib/auth/credentials');
      const viaStdin = `stdin-${Date.now()}@example.test`;
      const stdin = await adminWithInput(
        'quiet orchid lantern\n',
        {},
        'user:create',
        '--email',
        viaStdin,
        '--password-stdin',
        '--json',
      );
      expect(stdin.code, stdin.stderr).toBe(0);
      expect(stdin.stderr).not.toContain('warning');
      expect((await verifyCredentials(viaStdin, 'quiet orchid lantern', '2001:db8::51')).outcome).toBe('ok');

      const viaEnv = `env-${Date.now()}@example.test`;
      const fromEnv = await adminWith(
        { env: { ADMIN_USER_PASSWORD: 'amber harbour tractor' } },
        'user:create',
        '--email',
        viaEnv,
        '--json',
      );
      expect(fromEnv.code, fromEnv.stderr).toBe(0);
      expect((await verifyCredentials(viaEnv, 'amber harbour tractor', '2001:db8::52')).outcome).toBe('ok');

      const onLine = await admin(
        'user:create',
        '--email',
        `argv-${Date.now()}@example.test`,
        '--password',
        'a long password',
        '--json',
      );
      expect(onLine.code, onLine.stderr).toBe(0);
      expect(onLine.stderr).toMatch(/warning: --password on the command line is visible/);

      const weak = await adminWith(
        { input: '12345678' },
        'user:create',
        '--email',
        `weak-${Date.now()}@example.test`,
        '--password-stdin',
      );
      expect(weak.code).toBe(1);
      expect(weak.stderr).toContain('too easy to guess');
    },
    CLI_TEST_TIMEOUT_MS,
  );
});

describe('admin CLI', { timeout: CLI_TEST_TIMEOUT_MS }, () => {
  it('creates a user, sets the plan, creates a key that works on /v1, sets a wallet and revokes the key', async () => {
    const email = `ops-${Date.now()}@example.test`;
    const created = await admin(
      'user:create',
      '--email',
      email,
      '--password',
      'a long password',
      '--workspace',
      'Ops',
      '--json',
    );
    expect(created.code, created.stderr).toBe(0);
    const user = JSON.parse(created.stdout);
    expect(user).toEqual({
      user: { id: expect.stringMatching(/^usr_/), email },
      workspace: { id: expect.stringMatching(/^ws_/), name: 'Ops' },
      plan: 'Trial',
    });

    const plan = await admin('plan:set', '--workspace', user.workspace.id, '--plan', 'Developer', '--json');
    expect(JSON.parse(plan.stdout).workspace.plan).toBe('Developer');

    const keyResult = await admin(
      'key:create',
      '--workspace',
      user.workspace.id,
      '--label',
      'ops key',
      '--env',
      'live',
      '--scopes',
      'invoices:read',
      '--json',
    );
    const key = JSON.parse(keyResult.stdout);
    expect(key).toEqual({
      id: expect.any(Number),
      label: 'ops key',
      prefix: expect.stringMatching(/^live_/),
      environment: 'live',
      scopes: ['invoices:read'],
      secret: expect.stringMatching(/^live_/),
    });
    const me = await call('GET', '/v1/me', { key: key.secret });
    expect(me.json.key).toEqual({
      id: key.id,
      label: 'ops key',
      prefix: key.prefix,
      environment: 'live',
      scopes: ['invoices:read'],
    });

    const wallet = await admin(
      'wallet:set',
      '--workspace',
      user.workspace.id,
      '--network',
      'tron',
      '--address',
      'TJRabPrwbZy45sbavfcjinPJC18kjpRTv8',
      '--json',
    );
    expect(JSON.parse(wallet.stdout)).toEqual({
      workspace_id: user.workspace.id,
      network: 'tron',
      address: 'TJRabPrwbZy45sbavfcjinPJC18kjpRTv8',
    });
    // Bitcoin takes an extended public key (the suite runs on regtest: a vpub) and shows its first addresses.
    const btc = await admin(
      'wallet:set',
      '--workspace',
      user.workspace.id,
      '--network',
      'bitcoin',
      '--address',
      EXAMPLE_XPUB,
      '--json',
    );
    expect(JSON.parse(btc.stdout)).toMatchObject({
      network: 'bitcoin',
      address: EXAMPLE_XPUB,
      first_addresses: [expect.stringMatching(/^bcrt1q/), expect.any(String), expect.any(String)],
    });
    const plain = await admin(
      'wallet:set',
      '--workspace',
      user.workspace.id,
      '--network',
      'bitcoin',
      '--address',
      JSON.parse(btc.stdout).first_addresses[0],
    );
    expect(plain.code).toBe(1);
    expect(plain.stderr).toMatch(/single Bitcoin address/);

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
    const badWallet = await admin(
      'wallet:set',
      '--workspace',
      'ws_nope',
      '--network',
      'ethereum',
      '--address',
      '0x123',
    );
    expect(badWallet.code).toBe(1);
    expect(badWallet.stderr).toMatch(/40 hexadecimal/);
    const unknown = await admin('frobnicate');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('Unknown command frobnicate');
  });

  it('a usage mistake is one line, the closest known flag or command, and where the help is — not the help', async () => {
    const hint = 'run `npm run admin -- --help` for the commands and their options';
    const typo = await admin(
      'key:create',
      '--workspace',
      'ws_x',
      '--label',
      'k',
      '--env',
      'test',
      '--scope',
      'invoices:read',
    );
    expect(typo.code).toBe(2);
    expect(typo.stderr.trim().split('\n')).toEqual(['error: unknown option --scope: did you mean --scopes?', hint]);
    expect(typo.stdout).toBe('');
    const command = await admin('key:lst', '--workspace', 'ws_x', '--json');
    expect(command.code).toBe(2);
    expect(command.stderr.trim().split('\n')).toEqual(['error: Unknown command key:lst: did you mean key:list?', hint]);
    expect(JSON.parse(command.stdout)).toEqual({
      error: { code: 'usage', message: 'Unknown command key:lst: did you mean key:list?' },
    });
    // A mistake found after the database is reached (a missing flag) reads the same way.
    const missing = await admin('plan:set', '--plan', 'Business');
    expect(missing.code).toBe(2);
    expect(missing.stderr.trim().split('\n')).toEqual(['error: --workspace is required', hint]);
    const help = await admin('--help');
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Commands:');
  });

  it("lists users, workspaces (all or by email) and a workspace's keys, as text and --json, never with a secret", async () => {
    // The data is made through the domain functions (as the other suites do); only the list commands run the CLI.
    const email = `lister-${Date.now()}@example.test`;
    const { user, workspace } = await createUserWithWorkspace({
      email,
      password: 'a long password',
      workspaceName: 'Listed',
    });
    const created = { user, workspace };
    const workspaceId = workspace.id;
    const key = { ...(await createApiKey(workspaceId, { label: 'listed key', environment: 'test' })) };
    await revokeApiKey(key.key.id, workspaceId);
    const live = await createApiKey(workspaceId, { label: 'live one', environment: 'live' });

    const users = await admin('user:list', '--json');
    expect(users.code, users.stderr).toBe(0);
    expect(JSON.parse(users.stdout).data).toContainEqual({
      id: created.user.id,
      email,
      created_at: expect.any(String),
      workspaces: [{ id: workspaceId, name: 'Listed', role: 'owner' }],
    });

    const mine = await admin('workspace:list', '--email', email.toUpperCase(), '--json');
    expect(JSON.parse(mine.stdout)).toEqual({
      data: [
        {
          id: workspaceId,
          name: 'Listed',
          plan: 'Trial',
          created_at: expect.any(String),
          members: [{ email, role: 'owner' }],
        },
      ],
    });

    const keys = await admin('key:list', '--workspace', workspaceId, '--json');
    expect(keys.code, keys.stderr).toBe(0);
    const listed = JSON.parse(keys.stdout);
    expect(listed.workspace_id).toBe(workspaceId);
    expect(listed.data).toEqual([
      {
        id: live.key.id,
        label: 'live one',
        prefix: live.key.prefix,
        environment: 'live',
        scopes: ['invoices:read', 'invoices:write'],
        status: 'active',
        created_at: expect.any(String),
        last_used_at: null,
        revoked_at: null,
      },
      {
        id: key.key.id,
        label: 'listed key',
        prefix: key.key.prefix,
        environment: 'test',
        scopes: ['invoices:read', 'invoices:write'],
        status: 'revoked',
        created_at: expect.any(String),
        last_used_at: null,
        revoked_at: expect.any(String),
      },
    ]);
    const text = await admin('key:list', '--workspace', workspaceId);
    expect(text.stdout).toContain('listed key');
    expect(text.stdout).toMatch(/revoked/);
    for (const output of [keys.stdout, text.stdout]) {
      expect(output).not.toContain(key.secret);
      expect(output).not.toContain(live.secret);
    }

    const missing = await admin('key:list', '--workspace', 'ws_nope');
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('Workspace ws_nope not found');
  });
});

describe('admin CLI: webhooks', { timeout: 240_000 }, () => {
  it('webhook:create prints the secret once; webhook:list never prints a secret; refused URLs and unknown events exit non-zero', async () => {
    const created = JSON.parse(
      (
        await admin(
          'user:create',
          '--email',
          `hooks-${Date.now()}@example.test`,
          '--password',
          'a long password',
          '--json',
        )
      ).stdout,
    );
    const workspace = created.workspace.id as string;

    const hook = await admin(
      'webhook:create',
      '--workspace',
      workspace,
      '--env',
      'live',
      '--url',
      'https://93.184.215.14/hooks',
      '--events',
      'invoice.paid,invoice.created',
      '--description',
      'Orders',
      '--json',
    );
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
    const text = await admin(
      'webhook:create',
      '--workspace',
      workspace,
      '--env',
      'test',
      '--url',
      'http://93.184.215.14/test',
    );
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toMatch(/whsec_\S+/);
    expect(text.stdout).toContain('shown once');
    const textSecret = /whsec_\S+/.exec(text.stdout)![0];

    const list = await admin('webhook:list', '--workspace', workspace, '--json');
    expect(list.code, list.stderr).toBe(0);
    const listed = JSON.parse(list.stdout);
    expect(listed.data).toHaveLength(2);
    expect(listed.data.find((e: { id: string }) => e.id === endpoint.id)).toEqual({ ...endpoint, secret: undefined });
    const plain = await admin('webhook:list', '--workspace', workspace);
    for (const output of [list.stdout, list.stderr, plain.stdout, plain.stderr]) {
      expect(output).not.toContain('whsec_');
      expect(output).not.toContain(endpoint.secret.slice(6, 30));
      expect(output).not.toContain(textSecret.slice(6, 30));
    }
    expect(plain.stdout).toContain(endpoint.id);

    const refused = await admin(
      'webhook:create',
      '--workspace',
      workspace,
      '--env',
      'test',
      '--url',
      'http://127.0.0.1:9/hooks',
      '--json',
    );
    expect(refused.code).toBe(1);
    expect(JSON.parse(refused.stdout).error).toMatchObject({
      code: 'webhook_url_refused',
      message: expect.stringContaining('not a public address'),
    });
    // The same local receiver with the development switch (npm run dev sets it; README "Test webhooks locally").
    const local = await adminWithInput(
      '',
      { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' },
      'webhook:create',
      '--workspace',
      workspace,
      '--env',
      'test',
      '--url',
      'http://localhost:4242/webhooks',
      '--json',
    );
    expect(local.code, local.stderr).toBe(0);
    expect(JSON.parse(local.stdout)).toMatchObject({
      url: 'http://localhost:4242/webhooks',
      environment: 'test',
      status: 'enabled',
    });
    // It never lifts the https rule of live endpoints.
    const liveLocal = await adminWithInput(
      '',
      { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' },
      'webhook:create',
      '--workspace',
      workspace,
      '--env',
      'live',
      '--url',
      'http://localhost:4242/webhooks',
      '--json',
    );
    expect(liveLocal.code).toBe(1);
    expect(JSON.parse(liveLocal.stdout).error).toMatchObject({
      code: 'webhook_url_refused',
      message: 'Live endpoints must use https://',
    });
    const badEvent = await admin(
      'webhook:create',
      '--workspace',
      workspace,
      '--env',
      'test',
      '--url',
      'http://93.184.215.14/x',
      '--events',
      'invoice.eaten',
    );
    expect(badEvent.code).toBe(2);
    expect(badEvent.stderr).toContain('Unknown event type(s) invoice.eaten');
    const noWorkspace = await admin('webhook:list', '--workspace', 'ws_nope', '--json');
    expect(noWorkspace.code).toBe(1);
    expect(JSON.parse(noWorkspace.stdout).error.message).toContain('Workspace ws_nope not found');
  });
});
