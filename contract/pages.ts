/** Who may open a page (§2, §6). */
export type RouteAccess = 'all' | 'anonymous' | 'signed-in' | 'admin';

/**
 * What the document says about each portal path: its title and, for the public pages, a
 * description for search engines; `prerender` pages are rendered on the server, for whoever their
 * access rule lets in (contract/routeAccess.ts), so their content shows before the app's
 * JavaScript runs. Pure data: the server reads it to write each page's
 * <head>, the browser to keep document.title in step with the route.
 */
export interface PageInfo {
  /** The route path, without a leading slash ('admin/*' for the console). */
  path: string;
  title: string;
  description?: string;
  access: RouteAccess;
  prerender?: boolean;
  /**
   * Query parameters a pre-rendered page's first render depends on, with the values that change
   * it: any other value renders as if the parameter were absent, so the server keeps a bounded
   * number of renders.
   */
  renderParams?: Readonly<Record<string, readonly string[]>>;
  /** For a page of many paths ('admin/*'): the ones rendered on the server; the rest are the app's shell. */
  prerenderPaths?: readonly string[];
  /** Titles for a query parameter's values that change what the page is (the login page's register mode). */
  titleParams?: Readonly<Record<string, Readonly<Record<string, string>>>>;
  /** A feed of what the page lists, announced in its <head> for feed readers (the download page's releases, issue 41). */
  feed?: { title: string; href: string };
}

const SITE = 'Sage Dashboard';

export const PAGES = [
  {
    path: 'download',
    title: 'Download Sage',
    description: 'Download Sage, the AI assistant plugin for Unreal Engine 5.5, 5.6 and 5.7. No account is required.',
    access: 'all',
    prerender: true,
    feed: { title: 'Sage releases', href: '/releases.atom' },
  },
  {
    path: 'login',
    title: 'Sign in',
    description: 'Sign in to your Sage account with Epic Games, or with the legacy e-mail login.',
    access: 'anonymous',
    prerender: true,
    renderParams: { mode: ['register'] },
    // §2's name for the mode: a tab that says "Sign in" over the registration form misleads.
    titleParams: { mode: { register: 'Register' } },
  },
  {
    path: 'support',
    title: 'Get Support',
    description: 'Get help with installing Sage, your account or billing.',
    access: 'all',
    prerender: true,
  },
  { path: 'reset-password', title: 'Reset your password', access: 'all' },
  // Where GET /api/logout sends a request it cannot trust to sign out: whether it asks, or says
  // nobody is signed in, depends on the user, so it is never pre-rendered.
  { path: 'logout', title: 'Sign out', access: 'all' },
  { path: 'authentication_failed', title: 'Sign-in failed', access: 'all' },
  { path: 'epic_account_link', title: 'Link your e-mail', access: 'all' },
  { path: 'email-verification', title: 'Check your e-mail', access: 'all' },
  { path: 'email-verification-preview', title: 'Check your e-mail', access: 'all' },
  { path: 'email-verification-completed', title: 'E-mail verification', access: 'all' },
  { path: 'login_completed', title: 'Signed in', access: 'all' },
  { path: 'ue-test', title: 'Plugin sign-in test', access: 'all' },
  // A release e-mail's visible unsubscribe link (issue 41): a button confirms, a visit changes nothing.
  { path: 'unsubscribe/release-emails', title: 'Stop release e-mails', access: 'all' },
  // An invitation's link (issue 38): its token is the path's last part.
  { path: 'invitations/:token', title: 'Invitation', access: 'all' },
  { path: 'dashboard', title: 'Dashboard', access: 'signed-in', prerender: true },
  { path: 'products-checkout', title: 'Choose Your Plan', access: 'signed-in', prerender: true },
  {
    path: 'subscription-update',
    title: 'Update your subscription',
    access: 'signed-in',
    prerender: true,
    // Stripe's pages send the browser back with `updated=true` (and the plugin's with client=ue).
    renderParams: { client: ['ue', 'web'], updated: ['true'] },
  },
  // The console's Home is rendered on the server too, for the admin who opens it: its layout and
  // figures show before react-admin's JavaScript has arrived (issue 28, Lighthouse on a phone). Its
  // other pages are chunks of their own, with their records read in the browser.
  { path: 'admin/*', title: 'Admin', access: 'admin', prerender: true, prerenderPaths: ['/admin', '/admin/'] },
] as const satisfies readonly PageInfo[];

export type PagePath = (typeof PAGES)[number]['path'];

export const NOT_FOUND_PAGE: PageInfo = { path: '*', title: 'Page not found', access: 'all' };

/**
 * Paths that only redirect. The server answers them with a redirect, the router with <Navigate>.
 * §2's '/' and '/signup'; '/register' and '/forgot-password' are what people type for the login
 * page's two modes (issue 27): the register mode, and sign-in, where Forgot password? is.
 */
export const REDIRECTS: Readonly<Record<string, string>> = {
  '': '/download',
  signup: '/login',
  register: '/login?mode=register',
  'forgot-password': '/login',
};

function routePath(pathname: string): string {
  return pathname.replace(/^\/+/, '').replace(/\/+$/, '');
}

/** Where a redirecting path sends the browser, or undefined for a page. */
export function redirectFor(pathname: string): string | undefined {
  return REDIRECTS[routePath(pathname)];
}

/**
 * The redirect of a requested path and query (`?a=1`, or ''), or undefined for a page: the
 * request's query goes along, and the target's own parameters (mode=register) win over it.
 */
export function redirectLocation(pathname: string, search: string): string | undefined {
  const target = redirectFor(pathname);
  if (target === undefined) return undefined;
  const targetQuery = target.split('?')[1];
  if (targetQuery === undefined) return `${target}${search}`;
  const nameOf = (pair: string) => pair.split('=')[0];
  const targetNames = new Set(targetQuery.split('&').map(nameOf));
  const kept = search
    .replace(/^\?/, '')
    .split('&')
    .filter((pair) => pair !== '' && !targetNames.has(nameOf(pair)));
  return [target, ...kept].join('&');
}

/** Whether `path` is one of a page with parameters (`invitations/:token`): one non-empty segment for each. */
function matchesParams(pattern: string, path: string): boolean {
  if (!pattern.includes(':')) return false;
  const want = pattern.split('/');
  const got = path.split('/');
  return want.length === got.length && want.every((part, i) => (part.startsWith(':') ? got[i] !== '' : part === got[i]));
}

/** The page a browser path shows (a redirecting path: the page it leads to). */
export function pageFor(pathname: string): PageInfo {
  const target = redirectFor(pathname)?.split('?')[0];
  const path = routePath(target ?? pathname);
  if (path === 'admin' || path.startsWith('admin/')) return PAGES.find((p) => p.path === 'admin/*') ?? NOT_FOUND_PAGE;
  return PAGES.find((p) => p.path === path || matchesParams(p.path, path)) ?? NOT_FOUND_PAGE;
}

/** The query of a page's URL, as far as its title reads it (URLSearchParams is one). */
export interface PageQuery {
  get(name: string): string | null;
}

const NO_QUERY: PageQuery = { get: () => null };

/** A page's own title, for the query parameters it is shown with (the login page's register mode). */
export function pageTitle(page: PageInfo, query: PageQuery = NO_QUERY): string {
  for (const [name, titles] of Object.entries(page.titleParams ?? {})) {
    const value = query.get(name);
    if (value !== null && Object.hasOwn(titles, value)) return titles[value] as string;
  }
  return page.title;
}

/** The document title of a page: where the user is, then the product. */
export function documentTitle(page: PageInfo, query?: PageQuery): string {
  return `${pageTitle(page, query)} · ${SITE}`;
}

/** Whether the server renders `pathname`, one of `page`'s paths. */
export function prerendersAt(page: PageInfo, pathname: string): boolean {
  return page.prerender === true && (page.prerenderPaths === undefined || page.prerenderPaths.includes(pathname));
}
