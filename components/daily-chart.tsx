/**
 * The chart scales with its width: below 640 px (a phone) the labels are drawn twice as large in the chart's own
 * units, so that they stay readable once scaled down (CSS font-size beats the fontSize attribute).
 */
const LABEL_CLASS = 'max-sm:text-[22px]';

/**
 * Counts per day of the month as an inline SVG bar chart (a picture with a text alternative), rendered on the
 * server: no chart library, no script. `noun` names what is counted (default: requests).
 */
export function DailyChart({
  days,
  noun = { one: 'request', many: 'requests' },
  testId = 'daily-chart',
}: {
  days: Array<{ day: string; count: number }>;
  noun?: { one: string; many: string };
  testId?: string;
}) {
  const width = 640;
  const height = 200;
  const padLeft = 48;
  const padBottom = 30;
  const max = Math.max(1, ...days.map((d) => d.count));
  const plotW = width - padLeft - 8;
  const plotH = height - padBottom - 12;
  const slot = plotW / Math.max(1, days.length);
  const barW = Math.max(2, slot * 0.7);
  const total = days.reduce((sum, d) => sum + d.count, 0);
  const busiest = days.reduce((best, d) => (d.count > best.count ? d : best), days[0] ?? { day: '', count: 0 });
  const Many = noun.many.charAt(0).toUpperCase() + noun.many.slice(1);
  const description = `${Many} per day this month: ${total} in total${busiest.count > 0 ? `, most on ${busiest.day} (${busiest.count})` : ''}.`;
  return (
    <svg
      viewBox={`0 0 ${width} ${height}`}
      role="img"
      aria-label={description}
      className="h-auto w-full"
      data-testid={testId}
    >
      <title>{description}</title>
      <line x1={padLeft} y1={12} x2={padLeft} y2={12 + plotH} stroke="#cbd5e1" />
      <line x1={padLeft} y1={12 + plotH} x2={width - 8} y2={12 + plotH} stroke="#cbd5e1" />
      <text x={padLeft - 6} y={16} textAnchor="end" fontSize="11" fill="#475569" className={LABEL_CLASS}>
        {max}
      </text>
      <text x={padLeft - 6} y={12 + plotH} textAnchor="end" fontSize="11" fill="#475569" className={LABEL_CLASS}>
        0
      </text>
      {days.map((d, i) => {
        const h = (d.count / max) * plotH;
        const x = padLeft + i * slot + (slot - barW) / 2;
        const dayNumber = Number(d.day.slice(8, 10));
        return (
          <g key={d.day}>
            <rect x={x} y={12 + plotH - h} width={barW} height={h} rx={1.5} fill="#4f46e5">
              <title>{`${d.day}: ${d.count} ${d.count === 1 ? noun.one : noun.many}`}</title>
            </rect>
            {dayNumber === 1 || dayNumber % 5 === 0 ? (
              <text
                x={x + barW / 2}
                y={height - 6}
                textAnchor="middle"
                fontSize="11"
                fill="#475569"
                className={LABEL_CLASS}
              >
                {dayNumber}
              </text>
            ) : null}
          </g>
        );
      })}
    </svg>
  );
}
