import { db } from '../../lib/db';
import { newId } from '../../lib/ids';
import { createInvoice } from '../../lib/invoices/invoices';
import { createApiKey } from '../../lib/keys/keys';
import { createUserWithWorkspace } from '../../lib/workspaces/workspaces';

/**
 * Bench data, made through the domain layer. The 100,000 invoices are the exception: they are bulk
 * inserted (createMany in batches) for speed, with real ids (inv_ + 24 base62) and rows shaped exactly
 * like createInvoice's, after one invoice made through createInvoice as the template.
 */
export interface BenchData {
  manyKeys: string[];
  hotKey: string;
  bigKey: string;
  createKey: string;
  deepCursor: string;
  invoiceIds: string[];
  workspaceIds: string[];
}

async function workspaceWithKeys(name: string, keys: number) {
  const { workspace } = await createUserWithWorkspace({
    email: `${name}-${Date.now()}@bench.test`,
    password: 'bench password',
    workspaceName: name,
    plan: 'Business',
  });
  const secrets: string[] = [];
  for (let i = 0; i < keys; i++) secrets.push((await createApiKey(workspace.id, { label: `${name} key ${i}`, environment: 'test' })).secret);
  return { workspaceId: workspace.id, secrets };
}

export async function seed(invoices: number): Promise<BenchData> {
  const workspaceIds: string[] = [];
  const manyKeys: string[] = [];
  for (let w = 0; w < 20; w++) {
    const { workspaceId, secrets } = await workspaceWithKeys(`spread-${w}`, 5);
    workspaceIds.push(workspaceId);
    manyKeys.push(...secrets);
  }
  const hot = await workspaceWithKeys('hot', 1);
  const big = await workspaceWithKeys('big', 1);
  const creator = await workspaceWithKeys('creator', 1);
  workspaceIds.push(hot.workspaceId, big.workspaceId, creator.workspaceId);

  const scope = { workspaceId: big.workspaceId, environment: 'test' as const };
  const template = await createInvoice(scope, { amount: '25.5', currency: 'USDT', network: 'tron', expires_in: 604800 });
  const templateRow = await db().invoice.findUniqueOrThrow({ where: { id: template.id } });
  const { id: _id, seq: _seq, ...shape } = templateRow;
  const batch = 5000;
  const ids: string[] = [template.id];
  for (let done = 1; done < invoices; done += batch) {
    const rows = Array.from({ length: Math.min(batch, invoices - done) }, (_, i) => {
      const id = newId('invoice');
      ids.push(id);
      return { ...shape, id, orderId: `order-${done + i}`, metadata: {} };
    });
    await db().invoice.createMany({ data: rows });
  }
  // Fresh statistics, as autovacuum would have after a bulk load; without them the planner may pick the
  // (workspace, environment, seq) index for id lookups and scan the whole workspace.
  await db().$executeRawUnsafe('ANALYZE');
  // ids are in insertion order; the list is newest first, so the deep cursor is near the oldest end.
  const deepCursor = ids[Math.floor(invoices * 0.1)]!;
  const invoiceIds = Array.from({ length: 1000 }, (_, i) => ids[Math.floor((i * ids.length) / 1000)]!);
  return { manyKeys, hotKey: hot.secrets[0]!, bigKey: big.secrets[0]!, createKey: creator.secrets[0]!, deepCursor, invoiceIds, workspaceIds };
}
