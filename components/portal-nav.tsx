'use client';

import Link from 'next/link';
import { usePathname } from 'next/navigation';
import { cx } from './ui';

const LINKS = [
  { href: '/', label: 'Overview' },
  { href: '/keys', label: 'API keys' },
  { href: '/usage', label: 'Usage' },
  { href: '/invoices', label: 'Invoices' },
  { href: '/wallets', label: 'Wallets' },
  { href: '/webhooks', label: 'Webhooks' },
  { href: '/billing', label: 'Billing' },
] as const;

/** The portal's main navigation; scrolls sideways on narrow screens. */
export function PortalNav() {
  const pathname = usePathname();
  return (
    <nav aria-label="Portal" className="-mx-1 overflow-x-auto">
      <ul className="flex gap-1 px-1 py-1">
        {LINKS.map((link) => {
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
