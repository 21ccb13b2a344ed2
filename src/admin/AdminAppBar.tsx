import { AppBar, TitlePortal, UserMenu, useGetIdentity, useTranslate, type AppBarProps } from 'react-admin';
import { useAdminTab } from './useTabTitle';

/**
 * react-admin's app bar, with the title each page sets (its `<Title>`, a list's or a record's title)
 * as the page's one h1: react-admin draws it as an h6, and the console's pages have no other. The
 * user menu's button, which shows the username, is named with it (WCAG 2.5.3: label in name).
 *
 * The Home's title is written here rather than through react-admin's `<Title>`: that is a portal,
 * which the server cannot render, and the Home is the page the server renders, which is read
 * before the console starts (decisions 032 and 033). So its h1 is in the server's markup.
 */
export function AdminAppBar(props: AppBarProps) {
  const translate = useTranslate();
  const { identity } = useGetIdentity();
  const menuLabel = identity?.fullName ? translate('admin.userMenu', { name: identity.fullName }) : 'ra.auth.user_menu';
  const tab = useAdminTab();
  const onHome = tab !== null && 'menu' in tab && tab.menu === 'admin.menu.home';
  return (
    <AppBar {...props} userMenu={<UserMenu label={menuLabel} />}>
      <TitlePortal component="h1">{onHome ? translate('admin.menu.home') : null}</TitlePortal>
    </AppBar>
  );
}
