'use client';

import Link from 'next/link';
import { usePathname } from 'next/navigation';
import { useId, useRef, useState, type ReactNode } from 'react';
import { PORTAL_LINKS as LINKS } from './portal-links';
import { cx } from './ui';

/**
 * The portal header: who and where (`identity`), the main navigation, and the account controls (`account`: the
 * workspace switcher, sign-out). Wide screens (md and up) show the tabs under the identity line and the account
 * controls beside it, as before. Phones show the identity line and a "Menu" disclosure button; the tabs and the
 * account controls open under it (docs/portal.md, "Navigation on phones").
 *
 * One copy of every control in the DOM for both layouts (the panel is `display: contents` from md up), so ids,
 * labels and the switcher's form are never duplicated. Plain React state and handlers: nothing inline for the CSP.
 * `visible`: the links the member's role may open (the layout reads the role table); the others are not shown.
 */
export function PortalNav({
  visible,
  identity,
  account,
}: {
  visible: readonly string[];
  identity: ReactNode;
  account: ReactNode;
}) {
  const pathname = usePathname();
  // The menu is open on the page where it was opened: following a link (a new pathname) closes it.
  const [openOn, setOpenOn] = useState<string | null>(null);
  const open = openOn === pathname;
  const button = useRef<HTMLButtonElement>(null);
  const panelId = useId();

  function close(returnFocus: boolean) {
    setOpenOn(null);
    if (returnFocus) button.current?.focus();
  }

  return (
    <div
      className="mx-auto grid max-w-6xl grid-cols-[minmax(0,1fr)_auto] items-center gap-x-3 gap-y-2 px-4 py-3 md:gap-y-1 md:pb-1"
      onKeyDown={(event) => {
        if (event.key === 'Escape' && open) {
          event.preventDefault();
          close(true);
        }
      }}
    >
      <div className="col-start-1 row-start-1 min-w-0">{identity}</div>
      <button
        ref={button}
        type="button"
        className="col-start-2 row-start-1 inline-flex items-center gap-2 rounded-md border border-slate-300 bg-white px-3 py-2 text-sm font-medium text-slate-800 hover:bg-slate-50 focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500 md:hidden"
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => (open ? close(false) : setOpenOn(pathname))}
      >
        <svg
          aria-hidden="true"
          viewBox="0 0 20 20"
          className="h-4 w-4"
          fill="none"
          stroke="currentColor"
          strokeWidth="2"
          strokeLinecap="round"
        >
          {open ? <path d="M5 5l10 10M15 5L5 15" /> : <path d="M3 5h14M3 10h14M3 15h14" />}
        </svg>
        Menu
      </button>
      <div
        id={panelId}
        className={cx(open ? 'col-span-2 flex flex-col gap-4 border-t border-slate-200 pt-3' : 'hidden', 'md:contents')}
      >
        <nav aria-label="Portal" className="md:col-span-2 md:row-start-2 md:-mx-1">
          <ul className="grid grid-cols-2 gap-1 md:flex md:flex-wrap md:py-1">
            {LINKS.filter((link) => visible.includes(link.href)).map((link) => {
              const active = link.href === '/' ? pathname === '/' : pathname.startsWith(link.href);
              return (
                <li key={link.href}>
                  <Link
                    href={link.href}
                    aria-current={active ? 'page' : undefined}
                    onClick={() => setOpenOn(null)}
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
        <div className="md:col-start-2 md:row-start-1">{account}</div>
      </div>
    </div>
  );
}
