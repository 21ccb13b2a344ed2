import { useMediaQuery, type Theme } from '@mui/material';
import { useEffect } from 'react';
import { useListContext } from 'react-admin';
import { DEFAULT_PAGE_SIZE } from '../../../contract/admin';

/**
 * How the User List reads its users, shared by the list and the list drawn ahead (UserListAhead), so
 * both ask for the same page. The search, page and sort live in the console's store, not the
 * address: react-admin applies a search 0.5 s after the last key, and from the address a list still
 * on screen while the user's page opened from it is drawn would navigate back to itself (issue 37).
 * `users` keeps the selection's key, `users.selectedIds`, as the bulk actions know it.
 */
export const USER_LIST_READ = {
  resource: 'users',
  sort: { field: 'createdAt', order: 'DESC' as const },
  perPage: DEFAULT_PAGE_SIZE,
  disableSyncWithLocation: true,
  storeKey: 'users',
};

/** Whether the User List shows as a simple list (a phone's width) rather than a table: the screen's width, as CSS has it. */
export const useSimpleListScreen = (): boolean => useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'), { noSsr: true });

/** Inside a list: calls `onRead` once its page is read (or failed), for the list drawn ahead. */
export function ListRead({ onRead }: { onRead: () => void }): null {
  const { isPending } = useListContext();
  useEffect(() => {
    if (!isPending) onRead();
  }, [isPending, onRead]);
  return null;
}
