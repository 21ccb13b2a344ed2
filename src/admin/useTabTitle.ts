import { useEffect } from 'react';
import { useBasename, useGetOne, useTranslate } from 'react-admin';
import { useLocation } from 'react-router-dom';
import { documentTitle, pageFor } from '../../contract/pages';
import { useServerTitle } from '../ui/serverTitle';
import { ADMIN_PAGES } from './AdminLayout';

/** A console path (inside its basename) and the tab it shows: a menu entry's words, or a user's page. */
export type AdminTab = { menu: string } | { userId: string };

// A function, not a constant: AdminLayout imports this module before its own ADMIN_PAGES is set.
const menuByPath = (): Record<string, string> => ({
  '/': 'admin.menu.home',
  [ADMIN_PAGES.release]: 'admin.menu.release',
  [ADMIN_PAGES.search]: 'admin.menu.search',
  [ADMIN_PAGES.findMessage]: 'admin.menu.findMessage',
  [ADMIN_PAGES.recentMessages]: 'admin.menu.recentMessages',
  '/users': 'admin.menu.userList',
  '/audit': 'admin.menu.audit',
});

/** The tab of a console path: `/users/{id}`, `/users/{id}/show` and `/users/{id}/edit` are that user's page. */
export function adminTab(path: string): AdminTab | null {
  const trimmed = path.length > 1 ? path.replace(/\/+$/, '') : path;
  const menu = menuByPath()[trimmed === '' ? '/' : trimmed];
  if (menu) return { menu };
  const user = /^\/users\/([^/]+)(?:\/(?:show|edit))?$/.exec(trimmed);
  return user ? { userId: decodeURIComponent(user[1]!) } : null;
}

/** The console tab the browser is on. */
export function useAdminTab(): AdminTab | null {
  const { pathname } = useLocation();
  const basename = useBasename();
  return adminTab(pathname.startsWith(basename) ? pathname.slice(basename.length) || '/' : pathname);
}

/**
 * The browser tab says which console tab it shows: `Users · Admin · Sage Dashboard`, a user's
 * page by their username. The portal titles `/admin/*` as the console as a whole on every
 * navigation; this runs after it (its effects come later in the tree), with the same path.
 */
export function useTabTitle(): void {
  const { pathname } = useLocation();
  const translate = useTranslate();
  const tab = useAdminTab();
  const userId = tab && 'userId' in tab ? tab.userId : undefined;
  // The user's page reads the same record: one request, shared through react-admin's query cache.
  const { data: user } = useGetOne<{ id: string; username: string }>('users', { id: userId ?? '' }, { enabled: userId !== undefined });
  const whole = documentTitle(pageFor(pathname));
  const userWord = translate('resources.users.name', { smart_count: 1 });
  let name: string | null = null;
  // The users list is titled as react-admin names the resource (issue 28), its menu entry says User List.
  if (tab && 'menu' in tab)
    name = tab.menu === 'admin.menu.userList' ? translate('resources.users.name', { smart_count: 2 }) : translate(tab.menu);
  else if (userId !== undefined) name = user?.username ? `${userWord} ${user.username}` : userWord;
  const title = name ? `${name} · ${whole}` : whole;
  // The Home's page comes from the server titled already (it starts on approach, decision 033).
  useServerTitle(title);
  useEffect(() => {
    document.title = title;
  }, [title, pathname]);
}
