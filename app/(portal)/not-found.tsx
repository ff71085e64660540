import Link from 'next/link';
import { Card, PageHeader } from '@/components/ui';

export default function PortalNotFound() {
  return (
    <>
      <PageHeader title="Page not found" description="There is nothing at this address in your workspace." />
      <Card>
        <p className="text-sm">
          The page may have moved, or the invoice or key it names belongs to another workspace.{' '}
          <Link href="/" className="font-semibold text-indigo-700 underline">
            Back to the overview
          </Link>
        </p>
      </Card>
    </>
  );
}
