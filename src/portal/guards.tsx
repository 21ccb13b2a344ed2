import type { ReactNode } from 'react';
import { Navigate } from 'react-router-dom';
import { useCurrentUser } from '../authProvider/session';
import { routeAccess, sessionOf, type RouteAccess } from '../../contract/routeAccess';
import { LoadingScreen } from '../ui/LoadingScreen';

/**
 * Applies a route's access rule (§2): signed-in routes show Loading while the user loads and
 * send visitors (the server said 401) to /; the login screen sends a signed-in user to /dashboard;
 * the admin route sends a signed-in non-admin to /dashboard.
 */
export function Guard({ access, children }: { access: RouteAccess; children: ReactNode }) {
  const { data: user, isPending, isError } = useCurrentUser();
  const session = isPending ? 'loading' : isError ? 'error' : sessionOf(user);
  const decision = routeAccess(access, session);
  if (decision.kind === 'loading') return <LoadingScreen />;
  if (decision.kind === 'redirect') return <Navigate to={decision.to} replace />;
  return <>{children}</>;
}
