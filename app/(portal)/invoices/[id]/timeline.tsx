import Link from 'next/link';
import { LocalTime } from '@/components/local-time';
import { TxHash } from '@/components/tx-hash';
import { StatusBadge } from '@/components/ui';
import { formatMoney } from '@/lib/invoices/money';
import type { TimelineDelivery, TimelineEntry } from '@/lib/invoices/timeline';

/** The invoice's history, oldest first: events (with their webhook deliveries) and on-chain payments. */
export function Timeline({
  entries,
  canOpenWebhooks,
  explorerUrls,
}: {
  entries: TimelineEntry[];
  canOpenWebhooks: boolean;
  explorerUrls: Record<string, string | null>;
}) {
  if (entries.length === 0) return <p className="text-sm text-slate-600">Nothing recorded yet.</p>;
  return (
    <ol className="relative space-y-5 border-l border-slate-200 pl-5" data-testid="invoice-timeline">
      {entries.map((entry, i) => (
        <li
          key={i}
          className="relative"
          data-kind={entry.kind}
          data-type={entry.kind === 'event' || entry.kind === 'pruned' ? entry.type : undefined}
        >
          <span
            aria-hidden="true"
            className="absolute -left-[1.6rem] top-1.5 h-2.5 w-2.5 rounded-full bg-indigo-600 ring-4 ring-white"
          />
          <p className="text-xs text-slate-600">
            <LocalTime value={entry.at} />
          </p>
          {entry.kind === 'event' || entry.kind === 'pruned' ? (
            <>
              <p className="text-sm">
                <code className="font-mono text-xs font-semibold">{entry.type}</code>{' '}
                <span className="text-slate-700">{entry.description}</span>
              </p>
              {entry.kind === 'pruned' ? (
                <p className="text-xs text-slate-600">The event itself has been pruned (events are kept 30 days).</p>
              ) : null}
              {entry.kind === 'event' ? (
                <Deliveries deliveries={entry.deliveries} canOpenWebhooks={canOpenWebhooks} />
              ) : null}
            </>
          ) : (
            <div className="text-sm">
              <p>
                {entry.kind === 'payment_detected' ? 'Transfer seen on chain: ' : 'Transfer confirmed: '}
                <span className="font-medium tabular-nums">{formatMoney(entry.amount, entry.currency)}</span> on{' '}
                {entry.network}
                {entry.kind === 'payment_detected' && entry.status === 'reverted' ? (
                  <>
                    {' '}
                    <StatusBadge status="reverted" />
                  </>
                ) : null}
              </p>
              <TxHash hash={entry.txHash} explorerUrl={explorerUrls[entry.paymentId] ?? null} network={entry.network} />
            </div>
          )}
        </li>
      ))}
    </ol>
  );
}

function Deliveries({ deliveries, canOpenWebhooks }: { deliveries: TimelineDelivery[]; canOpenWebhooks: boolean }) {
  if (deliveries.length === 0) return null;
  return (
    <ul className="mt-1 space-y-1 text-xs" aria-label="Webhook deliveries">
      {deliveries.map((delivery) => {
        const state = delivery.status === 'pending' && delivery.attempts > 0 ? 'retrying' : delivery.status;
        return (
          <li key={delivery.id} className="flex flex-wrap items-center gap-x-2 gap-y-1" data-delivery-status={state}>
            <StatusBadge status={state === 'retrying' ? 'retrying' : state} />
            <span className="min-w-0 break-all font-mono">
              {canOpenWebhooks ? (
                <Link href={`/webhooks/${delivery.endpointId}`} className="text-indigo-700 underline">
                  {delivery.url}
                </Link>
              ) : (
                delivery.url
              )}
            </span>
            <span className="text-slate-600">
              {delivery.attempts} attempt{delivery.attempts === 1 ? '' : 's'}
              {delivery.lastStatusCode !== null ? ` · HTTP ${delivery.lastStatusCode}` : ''}
              {state === 'retrying' && delivery.nextAttemptAt ? (
                <>
                  {' '}
                  · next <LocalTime value={delivery.nextAttemptAt} />
                </>
              ) : null}
            </span>
          </li>
        );
      })}
    </ul>
  );
}
