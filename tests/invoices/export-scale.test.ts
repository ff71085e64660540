import { parse } from 'csv-parse';
import v8 from 'node:v8';
import vm from 'node:vm';
import { describe, expect, it } from 'vitest';
import { durableSql, runStatement } from '@/lib/db';
import { invoiceCsvChunks } from '@/lib/invoices/export';
import { filteredTotals } from '@/lib/invoices/portal-list';
import { createWorkspace } from '../support/fixtures';

// 100,000 invoices exported without holding them: the rows are written by one INSERT … SELECT generate_series
// (creating them one by one through the API would take most of an hour here); the export reads them as the
// portal does and a streaming csv-parse counts them. Prints the time and the heap growth it measured.

const ROWS = 100_000;

// Retained memory, not garbage not yet collected: a full collection before each sample.
v8.setFlagsFromString('--expose-gc');
const collect = vm.runInNewContext('gc') as () => void;
function retainedHeap(): number {
  collect();
  return process.memoryUsage().heapUsed;
}

describe('invoice CSV export at scale', () => {
  it(`streams ${ROWS.toLocaleString('en-US')} rows in bounded memory`, async () => {
    const workspaceId = (await createWorkspace()).id;
    await runStatement(
      durableSql(),
      `INSERT INTO invoices (id, workspace_id, environment, amount, currency, network, pay_address, created_at, expires_at, pay_amount, description, metadata)
       SELECT 'inv_' || lpad(n::text, 24, '0'), $1, 'test', (n % 1000) + 0.5, 'USDT', 'tron', 'T9yD14Nj9j7xAB4dbGeiX9h8unkKHxuWwb',
              now() - n * interval '1 second', now() + interval '1 hour', (n % 1000) + 0.5, 'Order ' || n || ', "quoted"', '{"k":"v"}'::jsonb
         FROM generate_series(1, ${ROWS}) AS n`,
      [workspaceId],
    );
    const scope = { workspaceId, environment: 'test' as const };
    const heapBefore = retainedHeap();
    let peak = heapBefore;
    const started = performance.now();
    const parser = parse({ columns: true });
    let rows = 0;
    let received = 0n;
    const counted = (async () => {
      for await (const record of parser as AsyncIterable<Record<string, string>>) {
        rows += 1;
        const [whole, fraction = ''] = record.amount!.split('.');
        received += BigInt(whole! + fraction.padEnd(6, '0'));
      }
    })();
    let chunks = 0;
    for await (const chunk of invoiceCsvChunks(scope, {})) {
      if (!parser.write(chunk)) await new Promise((resolve) => parser.once('drain', resolve));
      if (++chunks % 10 === 0) peak = Math.max(peak, retainedHeap());
    }
    parser.end();
    await counted;
    const seconds = (performance.now() - started) / 1000;
    const growthMb = (peak - heapBefore) / 1024 / 1024;
    console.log(
      `[export scale] ${rows} rows in ${seconds.toFixed(1)} s (${Math.round(rows / seconds)} rows/s), retained heap growth at most ${growthMb.toFixed(1)} MB (sampled every 10 batches)`,
    );
    expect(rows).toBe(ROWS);
    const [total] = await filteredTotals(scope, {});
    expect(received).toBe(BigInt(total!.amount.replace('.', '').replace(/0{12}$/, '')));
    // The whole CSV is ≈ 25 MB; held in memory with its rows it would be several times that.
    expect(growthMb).toBeLessThan(32);
  }, 300_000);
});
