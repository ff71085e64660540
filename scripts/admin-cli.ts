/**
 * Operator CLI: `npm run admin -- <command> [options] [--json]` (scripts/admin.ts is the process around it).
 * It calls the same domain functions as the portal and the API; it holds no rules of its own. Everything it
 * reads from or writes to its process goes through `AdminIo`, so one run is a function call.
 */
import { closestName, parseCliArgs, UsageError, type FlagSpec, type FlagValues } from './cli-args';
import { resolveDatabaseUrl } from './db/embedded';
import { migrate } from './db/migrate';
import { table } from './admin-table';

const USAGE = `Usage: npm run admin -- <command> [options] [--json]

--json prints one JSON object: a list command's rows are in its "data" array (as the API's lists), an error is
{"error": {"code", "message"}}.

Commands:
  user:create   --email E --password-stdin [--workspace NAME] [--plan PLAN]
                (or the password in ADMIN_USER_PASSWORD; --password P still works but is visible in
                 process lists and shell history, and warns)
  plan:set      --workspace ID --plan PLAN
  key:create    --workspace ID --label L --env test|live [--scopes invoices:read,invoices:write]
                [--expires-at ISO8601] [--allowed-ips CIDR,CIDR]
  key:roll      --id N [--grace SECONDS]   (new secret printed once; the old key works SECONDS more, default 0)
  key:revoke    --id N
  wallet:set    --workspace ID --network N --address A   (bitcoin: an xpub/zpub, tpub/vpub or wpkh() descriptor)
  user:list                       every user with their workspaces
  workspace:list [--email E]      every workspace (or those of one user) with plan and members
  key:list      --workspace ID    a workspace's keys: id, label, prefix, scopes, status (never a secret)
  webhook:create --workspace ID --env test|live --url URL [--events type,type] [--description D]
  webhook:list  --workspace ID
  member:list   --workspace ID    a workspace's members and roles, and its pending invitations
  member:add    --workspace ID --email E --role owner|admin|developer|viewer
                (an existing account joins; to change a member's role, remove and add again)
  member:remove --workspace ID --email E   (never the last Owner; their sessions lose the workspace at once)

Plans: Trial, Developer, Business, Merchant. Networks: ethereum, polygon, base, tron, bitcoin.
The database is DATABASE_URL, or the project's embedded PostgreSQL when it is unset.`;

type Flags = FlagValues;

/** What a run reads from and writes to its process: standard streams and the environment. */
export interface AdminIo {
  /** One message on standard output (a line break follows). */
  out(text: string): void;
  /** One message on standard error (a line break follows). */
  err(text: string): void;
  /** All of standard input (for --password-stdin). */
  readStdin(): Promise<string>;
  env: NodeJS.ProcessEnv;
}

const COMMANDS = [
  'user:create',
  'plan:set',
  'key:create',
  'key:roll',
  'key:revoke',
  'wallet:set',
  'user:list',
  'workspace:list',
  'key:list',
  'webhook:create',
  'webhook:list',
  'member:list',
  'member:add',
  'member:remove',
] as const;

function required(flags: Flags, name: string): string {
  const value = flags[name];
  if (typeof value !== 'string' || value === '') throw new UsageError(`--${name} is required`);
  return value;
}

function optional(flags: Flags, name: string): string | undefined {
  const value = flags[name];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/**
 * The new user's password, kept off the command line: --password-stdin, or ADMIN_USER_PASSWORD in the
 * environment. --password on the command line is accepted, with a warning (process lists, shell history).
 */
async function passwordFrom(flags: Flags, io: AdminIo): Promise<string> {
  const sources = [flags['password-stdin'] === true, optional(flags, 'password') !== undefined].filter(Boolean).length;
  if (sources > 1) throw new UsageError('Give the password once: --password-stdin or --password, not both');
  if (flags['password-stdin'] === true) {
    // One trailing newline is not part of the password.
    const password = (await io.readStdin()).replace(/\r?\n$/, '');
    if (!password) throw new UsageError('--password-stdin: nothing was read from standard input');
    return password;
  }
  const onCommandLine = optional(flags, 'password');
  if (onCommandLine !== undefined) {
    io.err(
      'warning: --password on the command line is visible in process lists and shell history; use --password-stdin or ADMIN_USER_PASSWORD',
    );
    return onCommandLine;
  }
  const fromEnv = io.env.ADMIN_USER_PASSWORD;
  if (fromEnv) return fromEnv;
  throw new UsageError('A password is required: --password-stdin (recommended) or ADMIN_USER_PASSWORD');
}

async function run(command: string, flags: Flags, io: AdminIo): Promise<{ json: unknown; text: string }> {
  // Imported after DATABASE_URL is known: lib/env reads it once.
  const { createUserWithWorkspace, setWorkspacePlan } = await import('../lib/workspaces/workspaces');
  const { createApiKey, revokeApiKey, rollApiKey } = await import('../lib/keys/keys');
  const { OPERATOR } = await import('../lib/audit/audit');
  const { bitcoinPreview, setWallet } = await import('../lib/wallets/wallets');
  const { isPlanName, PLAN_NAMES } = await import('../lib/plans');
  const { isScope } = await import('../lib/scopes');
  const { listUsers, listWorkspaces } = await import('../lib/workspaces/directory');
  const { getWorkspace } = await import('../lib/workspaces/workspaces');
  const { listApiKeys } = await import('../lib/keys/keys');
  const iso = (date: Date | null) => date?.toISOString() ?? null;
  const { createWebhookEndpoint, listWebhookEndpoints } = await import('../lib/webhooks/endpoints');
  const { SUBSCRIBABLE_EVENT_TYPES } = await import('../lib/events/types');

  switch (command) {
    case 'user:create': {
      const planName = optional(flags, 'plan');
      if (planName !== undefined && !isPlanName(planName))
        throw new UsageError(`Unknown plan ${planName}: use ${PLAN_NAMES.join(', ')}`);
      const { user, workspace } = await createUserWithWorkspace({
        email: required(flags, 'email'),
        password: await passwordFrom(flags, io),
        workspaceName: optional(flags, 'workspace'),
        plan: planName,
      });
      return {
        json: {
          user: { id: user.id, email: user.email },
          workspace: { id: workspace.id, name: workspace.name },
          plan: workspace.plan,
        },
        text: `Created user ${user.email} (${user.id}) with workspace "${workspace.name}" (${workspace.id}) on the ${workspace.plan} plan`,
      };
    }
    case 'plan:set': {
      const planName = required(flags, 'plan');
      if (!isPlanName(planName)) throw new UsageError(`Unknown plan ${planName}: use ${PLAN_NAMES.join(', ')}`);
      const workspace = await setWorkspacePlan(required(flags, 'workspace'), planName, OPERATOR);
      return {
        json: { workspace: { id: workspace.id, name: workspace.name, plan: workspace.plan } },
        text: `Workspace ${workspace.id} is now on the ${workspace.plan} plan`,
      };
    }
    case 'key:create': {
      const environment = required(flags, 'env');
      if (environment !== 'test' && environment !== 'live') throw new UsageError('--env must be test or live');
      const scopes = (optional(flags, 'scopes') ?? '')
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
      const unknown = scopes.filter((scope) => !isScope(scope));
      if (unknown.length)
        throw new UsageError(`Unknown scope(s) ${unknown.join(', ')}: use invoices:read, invoices:write`);
      const expiresAt = optional(flags, 'expires-at');
      if (expiresAt !== undefined && Number.isNaN(Date.parse(expiresAt)))
        throw new UsageError('--expires-at must be an ISO 8601 date and time');
      const allowedIps = optional(flags, 'allowed-ips');
      const { key, secret } = await createApiKey(
        required(flags, 'workspace'),
        {
          label: required(flags, 'label'),
          environment,
          scopes: scopes.filter(isScope),
          ...(expiresAt !== undefined ? { expiresAt } : {}),
          ...(allowedIps !== undefined ? { allowedIps } : {}),
        },
        OPERATOR,
      );
      return {
        json: { ...keyJson(key), secret },
        text: `Created ${key.environment} key ${key.id} "${key.label}" with scopes ${key.scopes.join(', ')}${key.expiresAt ? `, expires ${key.expiresAt.toISOString()}` : ''}${key.allowedIps.length ? `, allowed from ${key.allowedIps.join(', ')}` : ''}\n\n  ${secret}\n\nThis secret is shown once. Store it in a secret manager now.`,
      };
    }
    case 'key:roll': {
      const id = Number(required(flags, 'id'));
      if (!Number.isSafeInteger(id) || id <= 0) throw new UsageError('--id must be a positive integer');
      const graceText = optional(flags, 'grace') ?? '0';
      const grace = Number(graceText);
      if (!/^\d+$/.test(graceText) || grace > 604_800)
        throw new UsageError('--grace must be a whole number of seconds, 0–604800 (7 days)');
      const { key, secret, old } = await rollApiKey(id, null, grace, OPERATOR);
      return {
        json: {
          ...keyJson(key),
          secret,
          replaces: { id: old.id, prefix: old.prefix, expires_at: old.expiresAt?.toISOString() ?? null },
        },
        text: `Rolled key ${old.id} (${old.prefix}…) into key ${key.id}; the old key ${grace === 0 ? 'stopped working now' : `works until ${old.expiresAt?.toISOString()}`}\n\n  ${secret}\n\nThis secret is shown once. Store it in a secret manager now.`,
      };
    }
    case 'key:revoke': {
      const id = Number(required(flags, 'id'));
      if (!Number.isSafeInteger(id) || id <= 0) throw new UsageError('--id must be a positive integer');
      const key = await revokeApiKey(id, null, OPERATOR);
      return {
        json: {
          id: key.id,
          label: key.label,
          prefix: key.prefix,
          environment: key.environment,
          scopes: key.scopes,
          revoked_at: key.revokedAt?.toISOString(),
        },
        text: `Revoked key ${key.id} (${key.prefix}…)`,
      };
    }
    case 'wallet:set': {
      const network = required(flags, 'network');
      const wallet = await setWallet(
        required(flags, 'workspace'),
        { network: network as Parameters<typeof setWallet>[1]['network'], address: required(flags, 'address') },
        OPERATOR,
      );
      // A Bitcoin wallet is a key: its first receive addresses let the operator check it against the wallet.
      const first = wallet.network === 'bitcoin' ? bitcoinPreview(wallet.address).map((a) => a.address) : null;
      return {
        json: {
          workspace_id: required(flags, 'workspace'),
          network: wallet.network,
          address: wallet.address,
          ...(first ? { first_addresses: first } : {}),
        },
        text: `Wallet for ${wallet.network} set to ${wallet.address}${first ? `\nFirst receive addresses: ${first.join(', ')}` : ''}`,
      };
    }
    case 'user:list': {
      const users = await listUsers();
      return {
        json: {
          data: users.map((u) => ({
            id: u.id,
            email: u.email,
            created_at: iso(u.createdAt),
            workspaces: u.workspaces,
          })),
        },
        text: table(
          ['USER', 'EMAIL', 'CREATED', 'WORKSPACES'],
          users.map((u) => [
            u.id,
            u.email,
            iso(u.createdAt),
            u.workspaces.map((w) => `${w.id} (${w.role})`).join(', '),
          ]),
        ),
      };
    }
    case 'workspace:list': {
      const workspaces = await listWorkspaces({ email: optional(flags, 'email') });
      return {
        json: {
          data: workspaces.map((w) => ({
            id: w.id,
            name: w.name,
            plan: w.plan,
            created_at: iso(w.createdAt),
            members: w.members,
          })),
        },
        text: table(
          ['WORKSPACE', 'NAME', 'PLAN', 'CREATED', 'MEMBERS'],
          workspaces.map((w) => [w.id, w.name, w.plan, iso(w.createdAt), w.members.map((m) => m.email).join(', ')]),
        ),
      };
    }
    case 'key:list': {
      const workspace = await getWorkspace(required(flags, 'workspace'));
      // ApiKeyView carries no secret and no hash: nothing to strip here.
      const keys = await listApiKeys(workspace.id);
      const status = (k: (typeof keys)[number]) => (k.revokedAt ? 'revoked' : 'active');
      return {
        json: {
          workspace_id: workspace.id,
          data: keys.map((k) => ({
            id: k.id,
            label: k.label,
            prefix: k.prefix,
            environment: k.environment,
            scopes: k.scopes,
            status: status(k),
            created_at: iso(k.createdAt),
            last_used_at: iso(k.lastUsedAt),
            revoked_at: iso(k.revokedAt),
          })),
        },
        text: table(
          ['KEY', 'LABEL', 'PREFIX', 'ENV', 'SCOPES', 'STATUS', 'LAST USED'],
          keys.map((k) => [
            String(k.id),
            k.label,
            `${k.prefix}…`,
            k.environment,
            k.scopes.join(','),
            status(k),
            iso(k.lastUsedAt) ?? 'never',
          ]),
        ),
      };
    }
    case 'webhook:create': {
      const environment = required(flags, 'env');
      if (environment !== 'test' && environment !== 'live') throw new UsageError('--env must be test or live');
      const workspace = await getWorkspace(required(flags, 'workspace'));
      const events = (optional(flags, 'events') ?? '')
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
      const unknown = events.filter((type) => !(SUBSCRIBABLE_EVENT_TYPES as string[]).includes(type));
      if (unknown.length)
        throw new UsageError(`Unknown event type(s) ${unknown.join(', ')}: use ${SUBSCRIBABLE_EVENT_TYPES.join(', ')}`);
      const { endpoint, secret } = await createWebhookEndpoint(
        workspace.id,
        {
          url: required(flags, 'url'),
          environment,
          description: optional(flags, 'description'),
          event_types: events,
        },
        { actor: OPERATOR },
      );
      return {
        json: { ...webhookJson(endpoint), secret },
        text: `Created ${endpoint.environment} webhook endpoint ${endpoint.id} → ${endpoint.url} (${endpoint.eventTypes.length ? endpoint.eventTypes.join(', ') : 'all events'})\n\n  ${secret}\n\nThis signing secret is shown once. Store it where your receiver reads it now.`,
      };
    }
    case 'webhook:list': {
      const workspace = await getWorkspace(required(flags, 'workspace'));
      const endpoints = await listWebhookEndpoints(workspace.id);
      return {
        json: { workspace_id: workspace.id, data: endpoints.map(webhookJson) },
        text: endpoints.length
          ? endpoints
              .map(
                (e) =>
                  `${e.id}  ${e.environment}  ${e.status}${e.disabledReason ? ` (${e.disabledReason})` : ''}  ${e.url}  ${e.eventTypes.length ? e.eventTypes.join(',') : 'all events'}`,
              )
              .join('\n')
          : `Workspace ${workspace.id} has no webhook endpoints`,
      };
    }
    case 'member:list': {
      const { listMembers } = await import('../lib/teams/members');
      const { listPendingInvitations } = await import('../lib/teams/invitations');
      const workspace = await getWorkspace(required(flags, 'workspace'));
      const [members, invitations] = await Promise.all([
        listMembers(workspace.id),
        listPendingInvitations(workspace.id),
      ]);
      return {
        json: {
          workspace_id: workspace.id,
          data: members.map((m) => ({
            user_id: m.userId,
            email: m.email,
            role: m.role,
            joined_at: m.joinedAt.toISOString(),
          })),
          pending_invitations: invitations.map((i) => ({
            id: i.id,
            email: i.email,
            role: i.role,
            expires_at: i.expiresAt.toISOString(),
          })),
        },
        text: [
          ...members.map((m) => `${m.email ?? m.userId}  ${m.role}`),
          ...invitations.map((i) => `${i.email}  ${i.role}  (invited, expires ${i.expiresAt.toISOString()})`),
        ].join('\n'),
      };
    }
    case 'member:add': {
      const { addMemberByEmail } = await import('../lib/teams/members');
      const { isRole, ROLES } = await import('../lib/teams/roles');
      const role = required(flags, 'role');
      if (!isRole(role)) throw new UsageError(`Unknown role ${role}: use ${ROLES.join(', ')}`);
      const workspace = await getWorkspace(required(flags, 'workspace'));
      const member = await addMemberByEmail(workspace.id, required(flags, 'email'), role, OPERATOR);
      return {
        json: {
          workspace_id: workspace.id,
          member: { user_id: member.userId, email: member.email, role: member.role },
        },
        text: `${member.email} is now ${member.role} of workspace ${workspace.id}`,
      };
    }
    case 'member:remove': {
      const { memberByEmail, removeMember } = await import('../lib/teams/members');
      const workspace = await getWorkspace(required(flags, 'workspace'));
      const email = required(flags, 'email');
      const member = await memberByEmail(workspace.id, email);
      if (!member) throw new UsageError(`${email} is not a member of workspace ${workspace.id}`);
      await removeMember(workspace.id, member.userId, OPERATOR);
      return {
        json: { workspace_id: workspace.id, removed: { user_id: member.userId, email: member.email } },
        text: `Removed ${member.email} from workspace ${workspace.id}`,
      };
    }
    default:
      throw new UsageError(`Unknown command ${command}`); // main() checks the name first, with a suggestion
  }
}

/** A key as /v1/me shows it, plus its expiry and allowlist when it has them. */
function keyJson(key: {
  id: number;
  label: string;
  prefix: string;
  environment: string;
  scopes: string[];
  expiresAt: Date | null;
  allowedIps: string[];
}) {
  return {
    id: key.id,
    label: key.label,
    prefix: key.prefix,
    environment: key.environment,
    scopes: key.scopes,
    ...(key.expiresAt ? { expires_at: key.expiresAt.toISOString() } : {}),
    ...(key.allowedIps.length ? { allowed_ips: key.allowedIps } : {}),
  };
}

/** An endpoint as the CLI prints it: never its secret (the view type has none). */
function webhookJson(endpoint: import('../lib/webhooks/endpoints').WebhookEndpointView) {
  return {
    id: endpoint.id,
    url: endpoint.url,
    description: endpoint.description,
    environment: endpoint.environment,
    event_types: endpoint.eventTypes,
    status: endpoint.status,
    disabled_reason: endpoint.disabledReason,
    created_at: endpoint.createdAt.toISOString(),
  };
}

function describeError(error: unknown): string {
  if (error instanceof UsageError) return error.message;
  if (error && typeof error === 'object' && 'name' in error && error.name === 'ZodError' && 'issues' in error) {
    const issues = (error as { issues: { path: PropertyKey[]; message: string }[] }).issues;
    return issues.map((issue) => `${issue.path.map(String).join('.') || 'input'}: ${issue.message}`).join('; ');
  }
  if (error instanceof Error && error.name === 'AppError') return error.message;
  return error instanceof Error ? error.message : String(error);
}

const STRING_OPTIONS = [
  'email',
  'password',
  'workspace',
  'plan',
  'label',
  'env',
  'scopes',
  'id',
  'network',
  'address',
  'expires-at',
  'allowed-ips',
  'grace',
  'url',
  'events',
  'description',
  'role',
] as const;
const OPTIONS: FlagSpec = {
  json: { type: 'boolean' },
  'password-stdin': { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  ...Object.fromEntries(STRING_OPTIONS.map((name) => [name, { type: 'string' as const }])),
};
const HELP_HINT = 'run `npm run admin -- --help` for the commands and their options';

/** A usage error: one line and where the help is (not the whole help again); with --json, the error object too. */
function usageError(io: AdminIo, message: string, json: boolean): number {
  if (json) io.out(JSON.stringify({ error: { message, code: 'usage' } }));
  io.err(`error: ${message}\n${HELP_HINT}`);
  return 2;
}

/** One CLI run: its exit code (0, 1 an operation failed, 2 a usage mistake). */
export async function runAdmin(args: string[], io: AdminIo): Promise<number> {
  let parsed: { values: Flags; positionals: string[] };
  try {
    parsed = parseCliArgs(args, OPTIONS, { allowPositionals: true });
  } catch (error) {
    return usageError(io, error instanceof Error ? error.message : String(error), args.includes('--json'));
  }
  const { values, positionals } = parsed;
  const json = values.json === true;
  const command = positionals[0] ?? '';
  if (values.help) {
    io.out(USAGE);
    return 0;
  }
  if (args.length === 0) {
    io.out(USAGE);
    return 2;
  }
  if (!command) return usageError(io, 'No command given', json);
  if (positionals.length > 1)
    return usageError(io, `Unexpected argument ${positionals[1]} (options start with --)`, json);
  if (!(COMMANDS as readonly string[]).includes(command)) {
    const suggestion = closestName(command, COMMANDS);
    return usageError(io, `Unknown command ${command}${suggestion ? `: did you mean ${suggestion}?` : ''}`, json);
  }
  const database = await resolveDatabaseUrl();
  // lib/env reads DATABASE_URL when the domain modules are first imported (run() imports them).
  process.env.DATABASE_URL = database.url;
  try {
    await migrate(database.url, { quiet: true });
    const result = await run(command, values, io);
    io.out(json ? JSON.stringify(result.json) : result.text);
    return 0;
  } catch (error) {
    const message = describeError(error);
    if (error instanceof UsageError) return usageError(io, message, json);
    if (json) io.out(JSON.stringify({ error: { message, code: (error as { code?: string })?.code ?? 'error' } }));
    io.err(`error: ${message}`);
    return 1;
  } finally {
    // Our connections close before an embedded server this run started is stopped.
    if (database.embedded) await (await import('../lib/db')).disconnectDb();
    await database.release();
  }
}
