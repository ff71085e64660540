import { randomBytes } from 'node:crypto';
import { db, durablePool } from '../../lib/db';
import { newId } from '../../lib/ids';
import { CURRENCY_RULES, type Currency, type Network } from '../../lib/invoices/currencies';
import { createInvoice } from '../../lib/invoices/invoices';
import { createApiKey } from '../../lib/keys/keys';
import { createUserWithWorkspace } from '../../lib/workspaces/workspaces';

/**
 * Bench data, made through the domain layer: users, workspaces (createUserWithWorkspace) and keys
 * (createApiKey), and one invoice per supported currency/network pair through createInvoice.
 *
 * The exception, for speed: the 100,000 invoices of the big workspace are bulk inserted with SQL
 * (`INSERT … SELECT FROM unnest(…)`, 10,000 rows a statement), copying the shape of the createInvoice
 * invoices (same pay addresses, same column conventions) with real ids (`inv_` + 24 base62 from newId).
 * They are varied like real history: a mix of pairs and amounts, created over the last 90 days in id
 * order, and pending (now expired by time), paid (simulated payment) or cancelled.
 */
export interface BenchData {
  manyKeys: string[];
  hotKey: string;
  bigKey: string;
  createKey: string;
  deepCursor: string;
  invoiceIds: string[];
  /** Which workspaces each group of keys belongs to, for the usage check. */
  workspaces: { spread: string[]; hot: string; big: string; creator: string };
}

const SPREAD_WORKSPACES = 20;
const KEYS_PER_SPREAD_WORKSPACE = 5;
const BATCH = 10_000;

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

function randomAmount(currency: Currency): string {
  const decimals = Math.min(CURRENCY_RULES[currency].decimals, 2 + Math.floor(Math.random() * 3));
  const whole = 1 + Math.floor(Math.random() * 5000);
  const fraction = Math.floor(Math.random() * 10 ** decimals).toString().padStart(decimals, '0').replace(/0+$/, '');
  return fraction ? `${whole}.${fraction}` : String(whole);
}

/** The 100,000-invoice history of one workspace, in batches; returns the ids oldest first. */
async function bulkInvoices(workspaceId: string, count: number, payAddress: Map<Network, string>): Promise<string[]> {
  const pairs = (Object.keys(CURRENCY_RULES) as Currency[]).flatMap((currency) => CURRENCY_RULES[currency].networks.map((network) => ({ currency, network })));
  const end = Date.now() - 60_000;
  const start = end - 90 * 24 * 3600 * 1000;
  const ids: string[] = [];
  for (let done = 0; done < count; done += BATCH) {
    const n = Math.min(BATCH, count - done);
    const cols = { id: [] as string[], amount: [] as string[], currency: [] as string[], network: [] as string[], pay: [] as string[], status: [] as string[], order: [] as string[], created: [] as string[], expires: [] as string[], paid: [] as (string | null)[], cancelled: [] as (string | null)[], tx: [] as (string | null)[] };
    for (let i = 0; i < n; i++) {
      const index = done + i;
      const { currency, network } = pairs[index % pairs.length]!;
      const created = start + Math.floor(((end - start) * index) / count);
      const roll = Math.random();
      const status = roll < 0.3 ? 'paid' : roll < 0.4 ? 'cancelled' : 'pending';
      const id = newId('invoice');
      ids.push(id);
      cols.id.push(id);
      cols.amount.push(randomAmount(currency));
      cols.currency.push(currency);
      cols.network.push(network);
      cols.pay.push(payAddress.get(network)!);
      cols.status.push(status);
      cols.order.push(`order-${index}`);
      cols.created.push(new Date(created).toISOString());
      cols.expires.push(new Date(created + 3600_000).toISOString());
      cols.paid.push(status === 'paid' ? new Date(created + 600_000).toISOString() : null);
      cols.cancelled.push(status === 'cancelled' ? new Date(created + 900_000).toISOString() : null);
      cols.tx.push(status === 'paid' ? `0x${randomBytes(32).toString('hex')}` : null);
    }
    await durablePool().query(
      `INSERT INTO invoices (id, workspace_id, environment, status, amount, currency, network, pay_address, metadata, order_id,
                             created_at, expires_at, paid_at, cancelled_at, payment_tx_hash, payment_amount, payment_simulated, pay_amount)
       SELECT t.id, $1, 'test', t.status::"InvoiceStatus", t.amount::numeric, t.currency, t.network, t.pay, '{}'::jsonb, t.ord,
              t.created, t.expires, t.paid, t.cancelled, t.tx,
              CASE WHEN t.status = 'paid' THEN t.amount::numeric END, CASE WHEN t.status = 'paid' THEN true END, t.amount::numeric
       FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[],
                   $9::timestamptz[], $10::timestamptz[], $11::timestamptz[], $12::timestamptz[], $13::text[])
            AS t(id, amount, currency, network, pay, status, ord, created, expires, paid, cancelled, tx)`,
      [workspaceId, cols.id, cols.amount, cols.currency, cols.network, cols.pay, cols.status, cols.order, cols.created, cols.expires, cols.paid, cols.cancelled, cols.tx],
    );
  }
  return ids;
}

export async function seed(invoices: number): Promise<BenchData> {
  const spread: string[] = [];
  const manyKeys: string[] = [];
  for (let w = 0; w < SPREAD_WORKSPACES; w++) {
    const { workspaceId, secrets } = await workspaceWithKeys(`spread-${w}`, KEYS_PER_SPREAD_WORKSPACE);
    spread.push(workspaceId);
    manyKeys.push(...secrets);
  }
  const hot = await workspaceWithKeys('hot', 1);
  const big = await workspaceWithKeys('big', 1);
  const creator = await workspaceWithKeys('creator', 1);

  // The domain layer decides each network's test pay address; the bulk rows copy it.
  const scope = { workspaceId: big.workspaceId, environment: 'test' as const };
  const payAddress = new Map<Network, string>();
  for (const currency of Object.keys(CURRENCY_RULES) as Currency[]) {
    for (const network of CURRENCY_RULES[currency].networks) {
      const made = await createInvoice(scope, { amount: randomAmount(currency), currency, network, expires_in: 3600 });
      payAddress.set(network, made.pay_address);
    }
  }
  // Inserted after the createInvoice ones, so the newest pages are the bulk history.
  const ids = await bulkInvoices(big.workspaceId, invoices, payAddress);
  // Fresh statistics, as autovacuum would have after a bulk load; without them the planner may pick the
  // (workspace, environment, seq) index for id lookups and scan the whole workspace.
  await db().$executeRawUnsafe('ANALYZE');
  // ids are oldest first; the list is newest first, so this cursor is 90% of the way down the list.
  const deepCursor = ids[Math.floor(invoices * 0.1)]!;
  const invoiceIds = Array.from({ length: 1000 }, (_, i) => ids[Math.floor((i * ids.length) / 1000)]!);
  return { manyKeys, hotKey: hot.secrets[0]!, bigKey: big.secrets[0]!, createKey: creator.secrets[0]!, deepCursor, invoiceIds,
    workspaces: { spread, hot: hot.workspaceId, big: big.workspaceId, creator: creator.workspaceId },
  };
}
