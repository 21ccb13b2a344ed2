import { AppBar, TitlePortal, UserMenu, useGetIdentity, useTranslate, type AppBarProps } from 'react-admin';

/**
 * react-admin's app bar, with the title each page sets (its `<Title>`, a list's or a record's title)
 * as the page's one h1: react-admin draws it as an h6, and the console's pages have no other. The
 * user menu's button, which shows the username, is named with it (WCAG 2.5.3: label in name).
 */
export function AdminAppBar(props: AppBarProps) {
  const translate = useTranslate();
  const { identity } = useGetIdentity();
  const menuLabel = identity?.fullName ? translate('admin.userMenu', { name: identity.fullName }) : 'ra.auth.user_menu';
  return (
    <AppBar {...props} userMenu={<UserMenu label={menuLabel} />}>
      <TitlePortal component="h1" />
    </AppBar>
  );
}
