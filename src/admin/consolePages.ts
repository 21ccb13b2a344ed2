import type { SvgIconProps } from '@mui/material';
import type { ComponentType } from 'react';
import { documentTitle, pageFor } from '../../contract/pages';
import { AuditIcon, FindMessageIcon, HomeIcon, MessagesIcon, OrgsIcon, ReleaseIcon, SearchIcon, UsersIcon } from './icons';

/** The console's base path: react-admin's basename, and the Home's address. */
export const CONSOLE_BASE = '/admin';

/** Paths of the console's own pages, inside its basename. */
export const ADMIN_PAGES = {
  release: '/release',
  search: '/search',
  findMessage: '/find-message',
  recentMessages: '/recent-messages',
} as const;

export interface ConsoleMenuEntry {
  /** Inside the basename: '/' is the Home. */
  path: string;
  /** The entry's words (a message key). */
  label: string;
  icon: ComponentType<SvgIconProps>;
}

/** §2 Admin dashboard tabs, in the product's order and words, then organisations (issue 38) and the audit log. */
export const CONSOLE_MENU: readonly ConsoleMenuEntry[] = [
  { path: '/', label: 'admin.menu.home', icon: HomeIcon },
  { path: ADMIN_PAGES.release, label: 'admin.menu.release', icon: ReleaseIcon },
  { path: ADMIN_PAGES.search, label: 'admin.menu.search', icon: SearchIcon },
  { path: ADMIN_PAGES.findMessage, label: 'admin.menu.findMessage', icon: FindMessageIcon },
  { path: ADMIN_PAGES.recentMessages, label: 'admin.menu.recentMessages', icon: MessagesIcon },
  { path: '/users', label: 'admin.menu.userList', icon: UsersIcon },
  { path: '/orgs', label: 'admin.menu.orgs', icon: OrgsIcon },
  { path: '/audit', label: 'admin.menu.audit', icon: AuditIcon },
];

/** A console path (inside its basename) and the tab it shows: a menu entry's words, a user's page or an organisation's. */
export type AdminTab = { menu: string } | { userId: string } | { orgId: string };

/**
 * The tab of a console path: `/users/{id}`, `/users/{id}/show` and `/users/{id}/edit` are that
 * user's page, `/orgs/{id}/show` that organisation's (staff do not edit organisations).
 */
export function adminTab(path: string): AdminTab | null {
  const trimmed = path.length > 1 ? path.replace(/\/+$/, '') : path;
  const entry = CONSOLE_MENU.find((item) => item.path === (trimmed === '' ? '/' : trimmed));
  if (entry) return { menu: entry.label };
  const user = /^\/users\/([^/]+)(?:\/(?:show|edit))?$/.exec(trimmed);
  if (user) return { userId: decodeURIComponent(user[1]!) };
  const org = /^\/orgs\/([^/]+)\/show$/.exec(trimmed);
  return org ? { orgId: decodeURIComponent(org[1]!) } : null;
}

/** The console path of a browser path: `/admin/users` is `/users`, `/admin` and `/admin/` the Home's `/`. */
export const consolePath = (pathname: string): string =>
  pathname.startsWith(CONSOLE_BASE) ? pathname.slice(CONSOLE_BASE.length) || '/' : pathname;

/** Whether a browser path is the console's Home. */
export const isConsoleHome = (pathname: string): boolean => consolePath(pathname) === '/';

/** A console tab's browser title, `Users · Admin · Sage Dashboard`; the console's own without a name. */
export function consoleTabTitle(name: string | null): string {
  const whole = documentTitle(pageFor(CONSOLE_BASE));
  return name ? `${name} · ${whole}` : whole;
}
