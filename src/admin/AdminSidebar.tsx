import { useMediaQuery, type Theme } from '@mui/material';
import { Sidebar, useTranslate, type SidebarProps } from 'react-admin';

/** react-admin's sidebar; on a phone it opens over the page as a dialog, which needs a name (the portal's drawer is "Menu" too). */
export function AdminSidebar(props: SidebarProps) {
  const translate = useTranslate();
  // react-admin's own breakpoint for the drawer that opens over the page.
  const overPage = useMediaQuery<Theme>((theme) => theme.breakpoints.down('sm'));
  return <Sidebar {...props} slotProps={overPage ? { paper: { 'aria-label': translate('admin.menuName') } } : undefined} />;
}
