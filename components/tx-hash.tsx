import { CopyButton } from './copy-button';

/**
 * A transaction hash: a link to the network's block explorer when there is one (opens in a new tab), always
 * copyable. `explorerUrl` comes from lib/chain/networks.ts explorerTxUrl; null shows the hash as text.
 */
export function TxHash({
  hash,
  explorerUrl,
  network,
  note,
}: {
  hash: string;
  explorerUrl: string | null;
  network: string;
  note?: string;
}) {
  return (
    <span className="inline-flex max-w-full flex-wrap items-center gap-2">
      {explorerUrl ? (
        <a
          href={explorerUrl}
          target="_blank"
          rel="noopener noreferrer"
          className="min-w-0 break-all font-mono text-xs text-indigo-700 underline"
          data-testid="tx-link"
        >
          {hash}
          <span className="sr-only"> (opens the {network} explorer in a new tab)</span>
        </a>
      ) : (
        <code className="min-w-0 break-all font-mono text-xs">{hash}</code>
      )}
      {note ? <span className="text-xs text-slate-600">{note}</span> : null}
      <CopyButton value={hash} name={`transaction hash ${hash.slice(0, 10)}…`} size="sm" />
    </span>
  );
}
