'use client';

import Link from 'next/link';
import { buttonClass, Card, PageHeader } from '@/components/ui';

/** An unexpected error while rendering a portal page: shown inside the portal layout, with no details leaked. */
export default function PortalError({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return (
    <>
      <PageHeader title="Something went wrong" description="This page could not be shown. Nothing you did was lost." />
      <Card>
        <p className="text-sm">
          Try again; if it keeps failing, tell the operator this reference:{' '}
          <code className="font-mono">{error.digest ?? 'none'}</code>
        </p>
        <div className="mt-4 flex flex-wrap gap-3">
          <button type="button" className={buttonClass.primary} onClick={() => reset()}>
            Try again
          </button>
          <Link href="/" className={buttonClass.secondary}>
            Overview
          </Link>
        </div>
      </Card>
    </>
  );
}
