import { Badge } from '@/components/ui';
import { LocalTime } from '@/components/local-time';
import type { EndpointHealth } from '@/lib/webhooks/delivery-status';

const STATE_LABELS = {
  healthy: { label: 'Healthy', tone: 'green' },
  failing: { label: 'Failing', tone: 'red' },
  disabled: { label: 'Disabled', tone: 'gray' },
  no_deliveries: { label: 'No deliveries yet', tone: 'gray' },
} as const;

export function HealthBadge({ health }: { health: EndpointHealth }) {
  const { label, tone } = STATE_LABELS[health.state];
  return <Badge tone={tone}>{label}</Badge>;
}

function outcome(lastAttempt: NonNullable<EndpointHealth['lastAttempt']>): string {
  const answer = lastAttempt.statusCode === null ? 'no answer' : `HTTP ${lastAttempt.statusCode}`;
  return `${lastAttempt.succeeded ? 'Delivered' : 'Failed'} (${answer})`;
}

/** The success share of the last 24 h, as "12 of 14 delivered (86 %)". */
export function windowSummary(window: EndpointHealth['window']): string {
  if (window.attempted === 0) return 'No attempts in the last 24 h';
  return `${window.delivered} of ${window.attempted} delivered in the last 24 h (${Math.floor((window.delivered / window.attempted) * 100)} %)`;
}

/** The health figures of one endpoint, as short lines (the list's cell, the detail page's card). */
export function HealthSummary({ health }: { health: EndpointHealth }) {
  return (
    <ul className="space-y-0.5 text-xs text-slate-700" data-testid="endpoint-health">
      <li>
        Last attempt:{' '}
        {health.lastAttempt ? (
          <>
            <span className={health.lastAttempt.succeeded ? 'text-green-800' : 'font-medium text-red-700'}>
              {outcome(health.lastAttempt)}
            </span>
            , <LocalTime value={health.lastAttempt.at} />
          </>
        ) : (
          'none yet'
        )}
      </li>
      <li>{windowSummary(health.window)}</li>
      {health.consecutiveFailures > 0 ? (
        <li className="font-medium text-red-700">
          {health.consecutiveFailures} failed {health.consecutiveFailures === 1 ? 'delivery' : 'deliveries'} in a row
        </li>
      ) : null}
    </ul>
  );
}
