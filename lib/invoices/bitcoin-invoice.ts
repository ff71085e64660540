import { durableSql } from '../db';
import { AppError } from '../errors';
import { bitcoinChain } from '../chain/bitcoin/chain';
import { BitcoinWalletError, deriveAddress, readBitcoinWallet } from '../chain/bitcoin/keys';
import { idempotencyRecordCte, type IdempotencyClaim } from '../idempotency/record';
import { invoiceEventCte } from './invoice-events';
import { fromSnapshot, type InvoiceSnapshot } from './snapshot';
import { commonValues, INSERT_COLUMNS, priceValues, type InsertOutcome, type NewInvoice } from './queries';
import type { Tenant } from '../tenant';

/**
 * A live Bitcoin invoice (docs/settlement.md): paid to an address of its own, the wallet key's next receive index
 * never handed out before (not after expiry either), and pay_amount = amount (attribution is by address, so
 * nothing is added). One durable transaction: the index is taken with an upsert on the key's counter row, whose
 * lock makes concurrent creates take turns, so two invoices never share an index; the invoice, its address and
 * invoice.created (and `claim`'s idempotency record) are then written by one statement. A rolled-back create gives
 * its index back.
 */
export async function insertBitcoinInvoice(
  tenant: Tenant,
  invoice: NewInvoice,
  claim: IdempotencyClaim | null = null,
): Promise<InsertOutcome> {
  const chain = bitcoinChain();
  return durableSql().begin(async (sql) => {
    const wallets = await sql.unsafe<Array<{ address: string }>>(
      `SELECT address FROM wallets WHERE workspace_id = $1 AND network = $2`,
      [tenant.workspaceId, invoice.network],
    );
    const stored = wallets[0]?.address;
    if (stored === undefined) return { kind: 'no_wallet' } as const;
    let wallet;
    try {
      wallet = readBitcoinWallet(stored, chain);
    } catch (error) {
      if (!(error instanceof BitcoinWalletError)) throw error;
      // A wallet saved under another BITCOIN_CHAIN (or before a rule changed): never derive from it.
      throw new AppError(
        'wallet_not_configured',
        `The workspace's Bitcoin wallet cannot be used: ${error.message} Set it again in the portal's Wallets page.`,
      );
    }
    const counters = await sql.unsafe<Array<{ index: number }>>(
      `INSERT INTO bitcoin_address_counters AS c (network, account_key, next_index) VALUES ($1, $2, 1)
       ON CONFLICT (network, account_key) DO UPDATE SET next_index = c.next_index + 1
       RETURNING c.next_index - 1 AS index`,
      [invoice.network, wallet.accountKey],
    );
    const derived = deriveAddress(wallet, counters[0]!.index, chain);
    const values = [
      ...commonValues(tenant, invoice),
      derived.address,
      derived.scriptPubKey,
      wallet.accountKey,
      derived.index,
    ];
    const param = (value: unknown) => `$${values.push(value)}`;
    const [priceAmount, priceCurrency, rate, rateSource, rateAt] = priceValues(invoice).map(param);
    const rows = await sql.unsafe<Array<{ invoice: InvoiceSnapshot }>>(
      `WITH inserted AS (
          INSERT INTO invoices (${INSERT_COLUMNS})
          VALUES ($1, $2, $3::"Environment", $4::numeric, $6, $5, $13, $7, $8::jsonb, $9, $10::timestamptz, $11::timestamptz, $12, $4::numeric,
                  ${priceAmount}::numeric, ${priceCurrency}::text, ${rate}::text, ${rateSource}::text, ${rateAt}::timestamptz)
          RETURNING *),
        address AS (
          INSERT INTO bitcoin_addresses (network, script_pubkey, address, account_key, derivation_index, workspace_id, invoice_id, created_at)
          SELECT network, $14, $13, $15, $16::int, workspace_id, id, created_at FROM inserted)
        ${invoiceEventCte('created_event', 'inserted', 'invoice.created', invoice.createdAt, param)}
        ${claim ? idempotencyRecordCte('recorded', claim, 'created_event', 'snapshot', param) : ''}
        SELECT snapshot AS invoice FROM created_event`,
      values as never[],
    );
    if (claim) claim.recorded = true;
    return { kind: 'created', record: fromSnapshot(rows[0]!.invoice) } as const;
  });
}
