'use client';

import Link from 'next/link';
import { usePathname } from 'next/navigation';
import { cx } from './ui';

const LINKS = [
  { href: '/', label: 'Overview' },
  { href: '/keys', label: 'API keys' },
  { href: '/usage', label: 'Usage' },
  { href: '/requests', label: 'Request log' },
  { href: '/invoices', label: 'Invoices' },
  { href: '/wallets', label: 'Wallets' },
  { href: '/webhooks', label: 'Webhooks' },
  { href: '/billing', label: 'Billing' },
  { href: '/docs', label: 'Docs' },
  { href: '/account', label: 'Account' },
  { href: '/audit', label: 'Audit log' },
  { href: '/members', label: 'Members' },
] as const;

export type NavHref = (typeof LINKS)[number]['href'];
export const NAV_HREFS: readonly NavHref[] = LINKS.map((link) => link.href);

/**
 * The portal's main navigation; wraps onto more lines on narrow screens (never scrolls sideways or clips).
 * `visible`: the links the member's role may open (the layout reads the role table); the others are not shown.
 */
export function PortalNav({ visible }: { visible: readonly string[] }) {
  const pathname = usePathname();
  return (
    <nav aria-label="Portal">
      <ul className="flex flex-wrap gap-1 py-1">
        {LINKS.filter((link) => visible.includes(link.href)).map((link) => {
          const active = link.href === '/' ? pathname === '/' : pathname.startsWith(link.href);
          return (
            <li key={link.href}>
              <Link
                href={link.href}
                aria-current={active ? 'page' : undefined}
                className={cx(
                  'block whitespace-nowrap rounded-md px-3 py-2 text-sm font-medium',
                  active ? 'bg-indigo-50 text-indigo-700' : 'text-slate-700 hover:bg-slate-100',
                )}
              >
                {link.label}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
