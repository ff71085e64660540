/** Plain-text columns for the admin CLI's list commands (`--json` for machines). */
export function table(headers: string[], rows: (string | null)[][]): string {
  if (rows.length === 0) return '(none)';
  const cells = [headers, ...rows.map((row) => row.map((cell) => cell ?? ''))];
  const widths = headers.map((_, i) => Math.max(...cells.map((row) => (row[i] ?? '').length)));
  return cells
    .map((row) => row.map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i]!))).join('  '))
    .join('\n');
}
