/** A link of the top navigation bar: to the marketing site, or to a portal route. */
export type NavItem = { kind: 'external'; label: string; href: string } | { kind: 'route'; label: string; to: string };

/** The bar's session button: Login for visitors, Logout when signed in, an empty slot while the user loads. */
export type SessionAction = 'login' | 'logout' | 'none';
