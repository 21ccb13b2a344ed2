import { Suspense, type ReactNode } from 'react';
import { Navigate } from 'react-router-dom';
import { useCurrentUser } from '../authProvider/session';
import { routeAccess, sessionOf, type RouteAccess } from '../../contract/routeAccess';
import { ScreenShown } from '../start/screenShown';
import { lazyScreen } from '../ui/lazyScreen';
import { LoadingScreen } from '../ui/LoadingScreen';
import { useHydrated } from '../ui/useHydrated';
import { pendingInvitationPath } from './orgs/pendingInvitation';

// Its form (and zod) load only for the rare account that needs it.
const SetOwnPassword = lazyScreen(() => import('./SetOwnPasswordScreen').then((m) => m.SetOwnPasswordScreen));
// Only staff the console would refuse until they have a second factor load it (issue 40).
const SecondFactorSetup = lazyScreen(() => import('./SecondFactorSetupScreen').then((m) => m.SecondFactorSetupScreen));

/**
 * Applies a route's access rule (§2): signed-in routes show Loading while the user loads and
 * send visitors (the server said 401) to /; the login screen sends a signed-in user to /dashboard;
 * the admin route sends a signed-in non-admin to /dashboard.
 *
 * An account that still has a one-time password (`passwordChangeRequired`, issue 27) sees the form
 * that replaces it on every route it may open, /admin included, instead of the page, which then
 * appears in its place: the server refuses it everything else anyway. Likewise a member of staff
 * the console would refuse until they have a second factor (`secondFactorSetupRequired`, issue 40)
 * sees its setup at /admin.
 */
export function Guard({ access, children }: { access: RouteAccess; children: ReactNode }) {
  const { data: user, isPending, isError } = useCurrentUser();
  const session = isPending ? 'loading' : isError ? 'error' : sessionOf(user);
  const decision = routeAccess(access, session);
  if (decision.kind === 'loading') return <LoadingScreen />;
  // A signed-in visitor on the sign-in page goes on to an invitation opened before signing in (issue 38).
  if (decision.kind === 'redirect') return <Navigate to={(access === 'anonymous' && pendingInvitationPath()) || decision.to} replace />;
  if (user?.passwordChangeRequired) return <ScreenInstead screen={<SetOwnPassword />} />;
  if (access === 'admin' && user?.secondFactorSetupRequired) return <ScreenInstead screen={<SecondFactorSetup />} />;
  return <>{children}</>;
}

/**
 * A screen in place of the page: the form that replaces a one-time password, or the console's
 * second-factor setup for staff. Its chunk is not pre-rendered: the server's page, and the
 * browser's hydration of it, say Loading. A component of its own, so that only it renders again
 * once hydrated, not the guarded page (issue 28: the console's Home).
 */
function ScreenInstead({ screen }: { screen: ReactNode }) {
  const hydrated = useHydrated();
  if (!hydrated) return <LoadingScreen />;
  return (
    <Suspense fallback={<LoadingScreen />}>
      {screen}
      <ScreenShown />
    </Suspense>
  );
}
