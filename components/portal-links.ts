/** The portal's navigation links: plain data, read by the layout (which filters them by role) and the nav. */
export const PORTAL_LINKS = [
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

export type NavHref = (typeof PORTAL_LINKS)[number]['href'];
export const NAV_HREFS: readonly NavHref[] = PORTAL_LINKS.map((link) => link.href);
