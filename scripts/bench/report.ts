/** The bench's table: one row per scenario, throughput as a ratio of the baseline measured beside it. */
import type { Measured } from './run';

export function markdownTable(rows: Record<string, string | number>[]): string {
  const columns = Object.keys(rows[0] ?? {});
  const widths = columns.map((c) => Math.max(c.length, ...rows.map((r) => String(r[c]).length)));
  const line = (cells: string[]) => `| ${cells.map((cell, i) => cell.padEnd(widths[i]!)).join(' | ')} |`;
  return [line(columns), line(widths.map((w) => '-'.repeat(w))), ...rows.map((r) => line(columns.map((c) => String(r[c]))))].join('\n');
}

export function rows(results: Measured[]): Record<string, string | number>[] {
  const d1 = results.find((r) => r.id === 'd1');
  return results.map((r) => {
    const base = r.pairedBaseline;
    const ratio = base ? r.requestsPerSecond / base.requestsPerSecond : 1;
    // d2's target is relative to d1: compare the two ratios, each to its own paired baseline. Three decimals,
    // so a value at the edge of the ±10 % band (0.90) is not decided by rounding.
    const d2OfD1 = r.id === 'd2' && d1 ? ` (${(ratio / d1.ratio).toFixed(3)} of d1)` : '';
    return {
      scenario: `(${r.id}) ${r.name}`,
      'req/s': Math.round(r.requestsPerSecond),
      'p50 ms': r.p50,
      'p99 ms': r.p99,
      errors: r.non2xx + r.errors + r.timeouts,
      'RSS MiB': r.rssMiB,
      'server CPU ms/req': r.serverCpuMsPerRequest.toFixed(2),
      'db CPU ms/req': r.dbCpuMsPerRequest.toFixed(2),
      'baseline req/s': base ? Math.round(base.requestsPerSecond) : '',
      ratio: `${ratio.toFixed(2)}${d2OfD1}`,
      target: r.target ?? '',
      'p99 ≤ 2× base': base ? (r.p99 <= 2 * base.p99 ? `yes (${base.p99})` : `NO (${base.p99})`) : '',
    };
  });
}
