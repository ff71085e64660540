import Link from 'next/link';
import { Card, PageHeader } from '@/components/ui';

/** A portal page the member's role may not open (lib/teams/roles.ts): 403, with the way forward. */
export default function PortalForbidden() {
  return (
    <>
      <PageHeader
        title="Not available for your role"
        description="Your role in this workspace does not include this page."
      />
      <Card>
        <p className="text-sm">
          An Owner or Admin of the workspace can change your role on its Members page.{' '}
          <Link href="/" className="font-semibold text-indigo-700 underline">
            Back to the overview
          </Link>
        </p>
      </Card>
    </>
  );
}
