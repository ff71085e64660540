import { randomUUID } from 'node:crypto';
import { db } from '@/lib/db';
import { createApiKey } from '@/lib/keys/keys';
import type { KeyEnvironment } from '@/lib/keys/api-key-secret';
import type { PlanName } from '@/lib/plans';
import type { Scope } from '@/lib/scopes';
import { setWallet } from '@/lib/wallets/wallets';
import { createUserWithWorkspace } from '@/lib/workspaces/workspaces';

/** Test data is made through the same domain functions the portal and the admin CLI use. */
export async function createWorkspace(plan: PlanName = 'Business') {
  const { workspace } = await createUserWithWorkspace({
    email: `user-${randomUUID()}@example.test`,
    password: 'correct horse battery',
    workspaceName: `Workspace ${randomUUID().slice(0, 8)}`,
    plan,
  });
  return workspace;
}

export async function createKey(
  workspaceId: string,
  options: { environment?: KeyEnvironment; scopes?: Scope[]; label?: string } = {},
) {
  return createApiKey(workspaceId, {
    label: options.label ?? 'test key',
    environment: options.environment ?? 'test',
    scopes: options.scopes,
  });
}

/** A workspace on `plan` with one key; returns the workspace, the key view and its secret. */
export async function seedAccount(options: { plan?: PlanName; environment?: KeyEnvironment; scopes?: Scope[] } = {}) {
  const workspace = await createWorkspace(options.plan);
  const { key, secret } = await createKey(workspace.id, options);
  return { workspace, key, secret };
}

export async function setTronWallet(workspaceId: string) {
  return setWallet(workspaceId, { network: 'tron', address: 'TJRabPrwbZy45sbavfcjinPJC18kjpRTv8' });
}

/** A checksummed EVM address (hardhat's account 1), valid on ethereum, polygon and base. */
export const EVM_WALLET = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';

export async function setEvmWallet(
  workspaceId: string,
  network: 'ethereum' | 'polygon' | 'base' = 'ethereum',
  address = EVM_WALLET,
) {
  return setWallet(workspaceId, { network, address });
}

export async function monthlyCount(workspaceId: string): Promise<number> {
  const rows = await db().usageMonthly.findMany({ where: { workspaceId } });
  return rows.reduce((sum, row) => sum + row.count, 0);
}

export async function invoiceCount(workspaceId?: string): Promise<number> {
  return db().invoice.count({ where: workspaceId ? { workspaceId } : {} });
}

export const VALID_INVOICE = { amount: '10.50', currency: 'USDT', network: 'tron' } as const;
/** A live invoice on a network the suite's server watches (RPC_URL_ETHEREUM is set by the global setup). */
export const LIVE_INVOICE = { amount: '10.50', currency: 'USDT', network: 'ethereum' } as const;

/** The plan limits as the server under test is configured (its env may differ from this process's). */
export async function serverPlan(plan: 'Developer' | 'Business') {
  const { call } = await import('./http');
  const account = await seedAccount({ plan });
  const result = await call('GET', '/v1/me', { key: account.secret });
  const body = result.json.plan as { monthly_limit: number; rate_limit_per_second: number };
  return { monthlyLimit: body.monthly_limit, rateLimitPerSecond: body.rate_limit_per_second };
}
