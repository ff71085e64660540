/** Monthly requests against the plan's allowance, as an accessible progress bar. */
export function UsageBar({
  used,
  limit,
  label = 'Requests this month',
}: {
  used: number;
  limit: number;
  label?: string;
}) {
  const pct = limit > 0 ? Math.min(100, (used / limit) * 100) : 0;
  const tone = pct >= 90 ? 'bg-red-500' : pct >= 75 ? 'bg-amber-500' : 'bg-indigo-600';
  return (
    <div>
      <div className="mb-1 flex flex-wrap justify-between gap-2 text-sm">
        <span className="font-medium">{label}</span>
        <span data-testid="usage-count">
          {used.toLocaleString('en-US')} / {limit > 0 ? limit.toLocaleString('en-US') : 'no API allowance'}
        </span>
      </div>
      <div
        role="progressbar"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={limit}
        aria-valuenow={used}
        className="h-3 w-full overflow-hidden rounded-full bg-slate-200"
      >
        <div className={`h-full ${tone}`} style={{ width: `${pct}%` }} />
      </div>
    </div>
  );
}
