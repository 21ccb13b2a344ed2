import { useEffect } from 'react';
import { useGetOne, useTranslate } from 'react-admin';
import { useLocation } from 'react-router-dom';
import { adminTab, consolePath, consoleTabTitle } from './consolePages';

/**
 * The browser tab says which console tab it shows: `Users · Admin · Sage Dashboard`, a user's
 * page by their username, an organisation's by its name. The portal titles `/admin/*` as the console as a whole on every
 * navigation; this runs after it (its effects come later in the tree), with the same path.
 */
export function useTabTitle(): void {
  const { pathname } = useLocation();
  const translate = useTranslate();
  const tab = adminTab(consolePath(pathname));
  const userId = tab && 'userId' in tab ? tab.userId : undefined;
  const orgId = tab && 'orgId' in tab ? tab.orgId : undefined;
  // The user's (or organisation's) page reads the same record: one request, shared through react-admin's query cache.
  const { data: user } = useGetOne<{ id: string; username: string }>('users', { id: userId ?? '' }, { enabled: userId !== undefined });
  const { data: org } = useGetOne<{ id: string; name: string }>('orgs', { id: orgId ?? '' }, { enabled: orgId !== undefined });
  const userWord = translate('resources.users.name', { smart_count: 1 });
  const orgWord = translate('resources.orgs.name', { smart_count: 1 });
  let name: string | null = null;
  // The users list is titled as react-admin names the resource (issue 28), its menu entry says User List.
  if (tab && 'menu' in tab)
    name = tab.menu === 'admin.menu.userList' ? translate('resources.users.name', { smart_count: 2 }) : translate(tab.menu);
  else if (userId !== undefined) name = user?.username ? `${userWord} ${user.username}` : userWord;
  else if (orgId !== undefined) name = org?.name ? `${orgWord} ${org.name}` : orgWord;
  const title = consoleTabTitle(name);
  useEffect(() => {
    document.title = title;
  }, [title, pathname]);
}
