/**
 * Block numbers, deduplicated and sorted, grouped into spans of at most `max` blocks: one log query each, so a
 * watcher re-reads any number of pending payments with a number of calls bounded by their blocks' spread.
 */
export function blockSpans(blocks: readonly bigint[], max: number): Array<[bigint, bigint]> {
  const sorted = [...new Set(blocks)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const spans: Array<[bigint, bigint]> = [];
  for (const block of sorted) {
    const last = spans[spans.length - 1];
    if (last && block - last[0] < BigInt(max)) last[1] = block;
    else spans.push([block, block]);
  }
  return spans;
}
