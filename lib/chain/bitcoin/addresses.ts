import { db } from '../../db';

/**
 * The invoice addresses among a set of output scripts (docs/settlement.md): one indexed lookup per block or
 * mempool batch, whatever the number of invoices. Returns script (hex) → address.
 */
export async function invoiceAddressesByScript(
  network: string,
  scripts: readonly string[],
): Promise<Map<string, string>> {
  const unique = [...new Set(scripts)];
  if (unique.length === 0) return new Map();
  const rows = await db().$queryRaw<Array<{ script_pubkey: string; address: string }>>`
    SELECT script_pubkey, address FROM bitcoin_addresses WHERE network = ${network} AND script_pubkey = ANY(${unique}::text[])`;
  return new Map(rows.map((row) => [row.script_pubkey, row.address]));
}

export interface GapStatus {
  /** Consecutive addresses, newest first, that never received a payment. */
  unpaidInARow: number;
  /** The highest index handed out, or null when none was. */
  lastIndex: number | null;
}

/** Wallets stop looking for payments after this many unused addresses in a row (BIP44's gap limit). */
export const GAP_LIMIT = 20;

/**
 * How many of the workspace's newest Bitcoin invoice addresses in a row never received a payment (a payment
 * seen, confirmed or pending): past GAP_LIMIT the merchant's wallet may not show later payments until its gap
 * limit is raised (the portal says how). Reads at most GAP_LIMIT + 1 rows.
 */
export async function bitcoinGapStatus(workspaceId: string, network = 'bitcoin'): Promise<GapStatus> {
  const rows = await db().$queryRaw<Array<{ derivation_index: number; paid: boolean }>>`
    SELECT b.derivation_index,
           EXISTS (SELECT 1 FROM payments p WHERE p.invoice_id = b.invoice_id AND p.status <> 'reverted') AS paid
      FROM bitcoin_addresses b
     WHERE b.workspace_id = ${workspaceId} AND b.network = ${network}
     ORDER BY b.derivation_index DESC
     LIMIT ${GAP_LIMIT + 1}`;
  const firstPaid = rows.findIndex((row) => row.paid);
  return { unpaidInARow: firstPaid < 0 ? rows.length : firstPaid, lastIndex: rows[0]?.derivation_index ?? null };
}
