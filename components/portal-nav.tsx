'use client';

import Link from 'next/link';
import { usePathname } from 'next/navigation';
import { PORTAL_LINKS as LINKS } from './portal-links';
import { cx } from './ui';

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
