import { useEffect, useRef } from 'react';
import { useLocation } from 'react-router-dom';
import { useCurrentUser } from '../authProvider/session';
import { identify, track } from './index';
import { createPageTimer, isAdminPath } from './rules';

/**
 * Page View on every route change, Time on Page for the page left (longer than 3 s), and the
 * user type of the current session. Renders nothing; lives inside the router.
 */
export function PageTracker() {
  const { pathname } = useLocation();
  const user = useCurrentUser();
  const timer = useRef(createPageTimer());
  const last = useRef<string | null>(null);

  const userId = user.data?.id;
  const isAdmin = user.data?.isAdmin ?? false;
  useEffect(() => {
    if (user.isPending) return;
    identify(userId ? { id: userId, isAdmin } : null);
  }, [user.isPending, userId, isAdmin]);

  useEffect(() => {
    if (last.current === pathname) return;
    const visit = timer.current.stop();
    if (visit && !isAdminPath(visit.path)) {
      track('Time on Page', { page: visit.path, duration_ms: visit.durationMs, duration_seconds: Math.round(visit.durationMs / 1000) });
    }
    last.current = pathname;
    timer.current.start(pathname);
    track('Page View', { page: pathname });
  }, [pathname]);

  useEffect(() => {
    const onHide = () => {
      const visit = timer.current.stop();
      if (visit && !isAdminPath(visit.path)) {
        track('Time on Page', { page: visit.path, duration_ms: visit.durationMs, duration_seconds: Math.round(visit.durationMs / 1000) });
      }
    };
    window.addEventListener('pagehide', onHide);
    return () => window.removeEventListener('pagehide', onHide);
  }, []);

  return null;
}
