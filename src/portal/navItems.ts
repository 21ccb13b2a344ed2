import type { CurrentUser } from '../../contract/user';

/** A link of the top navigation bar: to the marketing site, or to a portal route. */
export type NavItem = { kind: 'external'; label: string; href: string } | { kind: 'route'; label: string; to: string };

/** The bar's session button: Login for visitors, Logout when signed in, an empty slot while the user loads. */
export type SessionAction = 'login' | 'logout' | 'none';

/**
 * §2's links, for everyone and then for the signed-in; an admin also gets Admin, the console's
 * only way in from the portal (issue 27: an admin landed on /dashboard with no way to /admin).
 */
export function navItems(marketingUrl: string, user: CurrentUser | null | undefined): NavItem[] {
  return [
    { kind: 'external', label: 'About', href: `${marketingUrl}/about` },
    { kind: 'external', label: 'Pricing', href: `${marketingUrl}/pricing` },
    { kind: 'external', label: 'Contact Us', href: `${marketingUrl}/contact` },
    { kind: 'route', label: 'Download', to: '/download' },
    ...(user ? [{ kind: 'route', label: 'Dashboard', to: '/dashboard' } as const] : []),
    ...(user?.isAdmin ? [{ kind: 'route', label: 'Admin', to: '/admin' } as const] : []),
  ];
}
