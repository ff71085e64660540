import { parse } from 'csv-parse/sync';
import { beforeAll, describe, expect, it } from 'vitest';
import { EXPORT_COLUMNS, invoiceCsvChunks, selectExportBatch } from '@/lib/invoices/export';
import { InvoiceFilters } from '@/lib/invoices/filters';
import { cancelInvoice, createInvoice, simulateInvoicePayment } from '@/lib/invoices/invoices';
import { filteredTotals, listFilteredInvoices } from '@/lib/invoices/portal-list';
import { CreateInvoiceBody } from '@/lib/invoices/schemas';
import { formatUnits, parseDecimal } from '@/lib/rates/decimal';
import { createWorkspace } from '../support/fixtures';

// The CSV export's query against the real database: keyset batches that neither skip nor repeat a row, the
// list's filters, and the tenant boundary (docs/portal.md, "CSV export").

type Row = Record<(typeof EXPORT_COLUMNS)[number], string>;
const DAY = 86_400_000;
const NOW = new Date();

async function csvOf(
  scope: { workspaceId: string; environment: 'test' | 'live' },
  filters: InvoiceFilters,
  batchSize: number,
): Promise<Row[]> {
  let text = '';
  for await (const chunk of invoiceCsvChunks(scope, filters, NOW, batchSize)) text += chunk;
  return parse(text, { columns: true, skip_empty_lines: true }) as Row[];
}

/** Exact decimal sum of strings (no floats). */
function sum(values: string[]): bigint {
  return values.reduce((total, value) => {
    const { units, scale } = parseDecimal(value);
    return total + units * 10n ** BigInt(18 - scale);
  }, 0n);
}
const asUnits = (value: string) => sum([value]);

let a = '';
let b = '';
const created: string[] = [];

beforeAll(async () => {
  a = (await createWorkspace()).id;
  b = (await createWorkspace()).id;
  const scopeA = { workspaceId: a, environment: 'test' as const };
  // 23 invoices in A over three days, two currencies and networks; some paid, some cancelled.
  for (let i = 0; i < 23; i++) {
    const body = CreateInvoiceBody.parse(
      i % 3 === 0
        ? {
            amount: `${i + 1}.5`,
            currency: 'ETH',
            network: 'ethereum',
            description: i === 3 ? '=HYPERLINK("x")' : `item ${i}`,
            order_id: `order-${i}`,
          }
        : { amount: `${i + 1}.25`, currency: 'USDT', network: 'tron', metadata: { n: String(i) } },
    );
    const at = new Date(NOW.getTime() - (2 - (i % 3)) * DAY - (23 - i) * 1000);
    const invoice = await createInvoice(scopeA, body, at);
    created.push(invoice.id);
    if (i % 4 === 0) await simulateInvoicePayment(scopeA, invoice.id, new Date(at.getTime() + 1000));
    else if (i % 5 === 0) await cancelInvoice(scopeA, invoice.id, new Date(at.getTime() + 1000));
  }
  // B's invoices, which A's export must never show.
  for (let i = 0; i < 4; i++)
    await createInvoice(
      { workspaceId: b, environment: 'test' },
      CreateInvoiceBody.parse({ amount: '7', currency: 'USDT', network: 'tron' }),
      NOW,
    );
}, 120_000);

describe('invoice CSV export', () => {
  it('reads every row once, newest first, whatever the batch size; same order as the list', async () => {
    const scope = { workspaceId: a, environment: 'test' as const };
    const whole = await csvOf(scope, {}, 1000);
    expect(whole).toHaveLength(23);
    expect(new Set(whole.map((row) => row.id))).toEqual(new Set(created));
    for (const batch of [1, 5, 22, 23])
      expect(
        (await csvOf(scope, {}, batch)).map((row) => row.id),
        `batch ${batch}`,
      ).toEqual(whole.map((row) => row.id));
    const listed = await listFilteredInvoices(scope, {}, { after: null, limit: 100 }, NOW);
    expect(whole.map((row) => row.id)).toEqual(listed.invoices.map((invoice) => invoice.id));
    // Batches follow each other on seq: the second starts strictly after the first's last row.
    const first = await selectExportBatch(scope, {}, NOW, null, 10);
    const second = await selectExportBatch(scope, {}, NOW, first.at(-1)!.seq, 10);
    expect(BigInt(second[0]!.seq)).toBeLessThan(BigInt(first.at(-1)!.seq));
    expect(new Set([...first, ...second].map((row) => row.id)).size).toBe(20);
  });

  it('has the accountant columns, currency-formatted amounts and formula-safe text', async () => {
    const rows = await csvOf({ workspaceId: a, environment: 'test' }, {}, 1000);
    expect(Object.keys(rows[0]!)).toEqual([...EXPORT_COLUMNS]);
    const paid = rows.find((row) => row.status === 'paid' && row.currency === 'USDT')!;
    expect(paid.paid_at).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    expect(paid.amount_received).toBe(paid.pay_amount);
    expect(paid.tx_hash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(paid.payment_simulated).toBe('true');
    for (const row of rows) expect(row.amount, row.id).toMatch(/^\d+\.\d{2,}$/);
    expect(rows.find((row) => row.order_id === 'order-3')!.description).toBe('\'=HYPERLINK("x")');
    expect(rows.find((row) => row.currency === 'USDT')!.metadata).toMatch(/^\{"n":"\d+"\}$/);
  });

  it('applies the list filters and sums to the list totals', async () => {
    const scope = { workspaceId: a, environment: 'test' as const };
    const cases: InvoiceFilters[] = [
      { status: 'paid' },
      { status: 'cancelled' },
      { status: 'pending' },
      { network: 'ethereum' },
      { currency: 'USDT', min: '5', max: '15.25' },
      { from: new Date(NOW.getTime() - DAY).toISOString().slice(0, 10) },
      { to: new Date(NOW.getTime() - 2 * DAY).toISOString().slice(0, 10) },
      { q: 'order-6' },
      { q: created[4]! },
    ];
    for (const filters of cases) {
      const parsed = InvoiceFilters.parse(filters);
      const rows = await csvOf(scope, parsed, 4);
      const listed = await listFilteredInvoices(scope, parsed, { after: null, limit: 100 }, NOW);
      expect(
        rows.map((row) => row.id),
        JSON.stringify(filters),
      ).toEqual(listed.invoices.map((invoice) => invoice.id));
      expect(rows.length, JSON.stringify(filters)).toBeGreaterThan(0);
      for (const row of rows) {
        if (filters.status) expect(row.status).toBe(filters.status);
        if (filters.network) expect(row.network).toBe(filters.network);
        if (filters.min) expect(asUnits(row.amount) >= asUnits(filters.min)).toBe(true);
        if (filters.max) expect(asUnits(row.amount) <= asUnits(filters.max)).toBe(true);
        if (filters.from) expect(row.created_at >= `${filters.from}T00:00:00`).toBe(true);
        if (filters.to) expect(row.created_at < `${filters.to}T23:59:59.999Z`).toBe(true);
      }
      const totals = await filteredTotals(scope, parsed, NOW);
      for (const total of totals) {
        const mine = rows.filter((row) => row.currency === total.currency);
        expect(mine).toHaveLength(total.count);
        expect(formatUnits(sum(mine.map((row) => row.amount)), 18)).toBe(formatUnits(asUnits(total.amount), 18));
        expect(formatUnits(sum(mine.map((row) => row.amount_received)), 18)).toBe(
          formatUnits(asUnits(total.amountReceived), 18),
        );
      }
      expect(totals.reduce((n, total) => n + total.count, 0)).toBe(rows.length);
    }
  });

  it('never crosses the tenant: another workspace, the other environment, a foreign cursor', async () => {
    const rowsB = await csvOf({ workspaceId: b, environment: 'test' }, {}, 2);
    expect(rowsB).toHaveLength(4);
    expect(rowsB.some((row) => created.includes(row.id))).toBe(false);
    expect(await csvOf({ workspaceId: a, environment: 'live' }, {}, 5)).toHaveLength(0);
    // A's invoice id searched from B finds nothing; as B's page cursor it positions nothing.
    expect(await csvOf({ workspaceId: b, environment: 'test' }, { q: created[0]! }, 5)).toHaveLength(0);
    const foreign = await listFilteredInvoices(
      { workspaceId: b, environment: 'test' },
      {},
      { after: created[0]!, limit: 10 },
      NOW,
    );
    expect(foreign).toMatchObject({ invoices: [], cursorFound: false });
  });
});
