import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo } from 'react';
import { Admin, CustomRoutes, defaultTheme, localStorageStore, Resource, type RaThemeOptions, type Store } from 'react-admin';
import { Route } from 'react-router-dom';
import { staffRefusal } from '../../contract/staffRoles';
import { createAuthProvider } from '../authProvider/authProvider';
import { useCurrentUser } from '../authProvider/session';
import { dataProvider } from '../dataProvider';
import { whenIdle } from '../start/whenIdle';
import { theme as portalTheme } from '../ui/theme';
import { AdminLayout } from './AdminLayout';
import {
  AuditList,
  FindMessage,
  MENU_PAGES,
  OrgList,
  OrgShow,
  RecentMessages,
  ReleasePage,
  UserEdit,
  UserList,
  UserSearch,
  UserShow,
} from './consolePageChunks';
import { ADMIN_PAGES, CONSOLE_BASE } from './consolePages';
import { i18nProvider } from './i18n';
import { AdminNotification } from './notify';
import { consoleComponents } from './themeComponents';
import { UserEditRefused } from './users/UserEditRefused';

/** Loads every page's chunk ahead: the tests then render any page at once, as the portal's tests do its screens. */
export const preloadAdminPages = () => Promise.all([...MENU_PAGES, UserEdit, UserShow, OrgShow].map((page) => page.preload()));

/** react-admin's look in the portal's colours, shape and type. */
const theme: RaThemeOptions = {
  ...defaultTheme,
  palette: {
    primary: { main: portalTheme.palette.primary.main },
    secondary: { main: portalTheme.palette.secondary.main },
    // MUI's red is under 4.5:1 on a filled field's grey: a refused field's label must stay readable.
    error: { main: '#b71c1c' },
    background: { default: portalTheme.palette.background.default },
  },
  shape: portalTheme.shape,
  typography: { ...defaultTheme.typography, fontFamily: portalTheme.typography.fontFamily },
  components: { ...defaultTheme.components, ...consoleComponents },
};

/** List settings are kept per browser, apart from other apps on the origin. */
function consoleStore(): Store {
  // react-admin renders nothing until the store names the language it is in: named at once.
  const store = localStorageStore(undefined, 'SageAdmin');
  store.setItem('locale', i18nProvider.getLocale());
  return store;
}

/** The Home is drawn outside react-admin (ConsoleScreen): its route here shows nothing. */
const NoDashboard = () => null;

/**
 * The admin console at /admin (§2 Admin dashboard), loaded as its own chunk. It shares the portal's
 * QueryClient (§9 defaults; a release updates the download page's build at once), and its
 * authProvider reads the portal's current user from it: one `GET /api/user` per page load.
 */
export default function AdminApp() {
  const queryClient = useQueryClient();
  const store = useMemo(() => consoleStore(), []);
  const authProvider = useMemo(() => createAuthProvider(queryClient), [queryClient]);
  // The pages follow the role of the user the page was served with, known at once (not through
  // react-admin's asynchronous permissions).
  const role = useCurrentUser().data?.staffRole ?? null;
  const editRefusal = staffRefusal(role, 'editUsers');
  const releaseRefusal = staffRefusal(role, 'releaseBuilds');
  useEffect(() => whenIdle(() => MENU_PAGES.forEach((page) => void page.preload().catch(() => undefined))), []);
  return (
    <Admin
      basename={CONSOLE_BASE}
      title="Sage Admin"
      dataProvider={dataProvider}
      authProvider={authProvider}
      i18nProvider={i18nProvider}
      queryClient={queryClient}
      store={store}
      theme={theme}
      layout={AdminLayout}
      dashboard={NoDashboard}
      notification={AdminNotification}
      loginPage={false}
      requireAuth
      disableTelemetry
    >
      {/* A page the signed-in role may not open says why (issues 28, 37): for support, the edit page and Release. */}
      <Resource
        name="users"
        list={UserList}
        show={UserShow}
        edit={editRefusal ? <UserEditRefused reason={editRefusal} /> : UserEdit}
        recordRepresentation="username"
      />
      {/* Every role reads organisations (issue 38); only admins grant credits to a pool, on its page. */}
      <Resource name="orgs" list={OrgList} show={OrgShow} recordRepresentation="name" />
      <Resource name="audit" list={AuditList} />
      <CustomRoutes>
        <Route
          path={ADMIN_PAGES.release}
          // Support reads the build history under the refusal (issue 41).
          element={<ReleasePage refusal={releaseRefusal} />}
        />
        <Route path={ADMIN_PAGES.search} element={<UserSearch />} />
        <Route path={ADMIN_PAGES.findMessage} element={<FindMessage />} />
        <Route path={ADMIN_PAGES.recentMessages} element={<RecentMessages />} />
      </CustomRoutes>
    </Admin>
  );
}
