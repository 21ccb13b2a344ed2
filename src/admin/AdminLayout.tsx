import type { ReactNode } from 'react';
import { Menu, useBasename } from 'react-admin';
import { AdminAppBar } from './AdminAppBar';
import { AdminSidebar } from './AdminSidebar';
import { ConsoleFrame } from './ConsoleFrame';
import { useTabTitle } from './useTabTitle';
import { AuditIcon, FindMessageIcon, HomeIcon, MessagesIcon, ReleaseIcon, SearchIcon, UsersIcon } from './icons';

/** Paths of the console's own pages, inside its `/admin` basename. */
export const ADMIN_PAGES = {
  release: '/release',
  search: '/search',
  findMessage: '/find-message',
  recentMessages: '/recent-messages',
} as const;

/** §2 Admin dashboard tabs, in the product's order and words, then the audit log; for a role that may not release, Release says so (issue 37). */
export function AdminMenu() {
  const basename = useBasename();
  return (
    <Menu>
      <Menu.DashboardItem primaryText="admin.menu.home" leftIcon={<HomeIcon />} />
      <Menu.Item to={`${basename}${ADMIN_PAGES.release}`} primaryText="admin.menu.release" leftIcon={<ReleaseIcon />} />
      <Menu.Item to={`${basename}${ADMIN_PAGES.search}`} primaryText="admin.menu.search" leftIcon={<SearchIcon />} />
      <Menu.Item to={`${basename}${ADMIN_PAGES.findMessage}`} primaryText="admin.menu.findMessage" leftIcon={<FindMessageIcon />} />
      <Menu.Item to={`${basename}${ADMIN_PAGES.recentMessages}`} primaryText="admin.menu.recentMessages" leftIcon={<MessagesIcon />} />
      <Menu.Item to={`${basename}/users`} primaryText="admin.menu.userList" leftIcon={<UsersIcon />} />
      <Menu.Item to={`${basename}/audit`} primaryText="admin.menu.audit" leftIcon={<AuditIcon />} />
    </Menu>
  );
}

// Made once: react-admin renders its layout again as it starts (its routes settle in effects), and
// the app bar and the menu, which follow their own state and contexts, need not render with it.
const APP_BAR = <AdminAppBar alwaysOn />;
const SIDEBAR = (
  <AdminSidebar appBarAlwaysOn>
    <AdminMenu />
  </AdminSidebar>
);

export function AdminLayout({ children }: { children: ReactNode }) {
  useTabTitle();
  return (
    // The app bar holds the page's h1: it stays on screen (react-admin would hide it, and so the h1, on scrolling down).
    <ConsoleFrame appBar={APP_BAR} sidebar={SIDEBAR}>
      {children}
    </ConsoleFrame>
  );
}
