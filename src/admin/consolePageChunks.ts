import { lazyScreen, type LazyScreen } from '../ui/lazyScreen';
import { adminTab, ADMIN_PAGES } from './consolePages';

// Every page is a chunk of its own, loaded when opened (the layout shows its loading indicator
// meanwhile), so react-admin starts sooner. Declared apart from react-admin's app: the console's
// screen loads the page the admin opens beside react-admin itself, not after it (issue 37).
export const AuditList = lazyScreen(() => import('./audit/AuditList').then((m) => m.AuditList));
export const FindMessage = lazyScreen(() => import('./messages/FindMessage').then((m) => m.FindMessage));
export const OrgList = lazyScreen(() => import('./orgs/OrgList').then((m) => m.OrgList));
export const OrgShow = lazyScreen(() => import('./orgs/OrgShow').then((m) => m.OrgShow));
export const RecentMessages = lazyScreen(() => import('./messages/RecentMessages').then((m) => m.RecentMessages));
export const ReleasePage = lazyScreen(() => import('./release/ReleasePage').then((m) => m.ReleasePage));
export const UserEdit = lazyScreen(() => import('./users/UserEdit').then((m) => m.UserEdit));
export const UserList = lazyScreen(() => import('./users/UserList').then((m) => m.UserList));
export const UserSearch = lazyScreen(() => import('./users/UserSearch').then((m) => m.UserSearch));
export const UserShow = lazyScreen(() => import('./users/UserShow').then((m) => m.UserShow));

/** The pages the menu opens: fetched once react-admin runs and the browser is idle, so the first click on one only renders it. */
export const MENU_PAGES = [UserList, OrgList, AuditList, ReleasePage, UserSearch, FindMessage, RecentMessages];

const MENU_PAGE_OF: Record<string, LazyScreen> = {
  '/users': UserList,
  '/orgs': OrgList,
  '/audit': AuditList,
  [ADMIN_PAGES.release]: ReleasePage,
  [ADMIN_PAGES.search]: UserSearch,
  [ADMIN_PAGES.findMessage]: FindMessage,
  [ADMIN_PAGES.recentMessages]: RecentMessages,
};

/**
 * The page a console path (inside its basename) opens: a menu page, a user's page or editor, an
 * organisation's page; null for the Home or an unknown path.
 */
export function consolePageAt(path: string): LazyScreen | null {
  const trimmed = path.length > 1 ? path.replace(/\/+$/, '') : path;
  const menuPage = MENU_PAGE_OF[trimmed];
  if (menuPage) return menuPage;
  const tab = adminTab(trimmed);
  if (tab && 'orgId' in tab) return OrgShow;
  if (!tab || !('userId' in tab)) return null;
  return trimmed.endsWith('/show') ? UserShow : UserEdit;
}
