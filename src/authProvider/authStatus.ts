import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { fetchAuthStatus } from '../api/epic';
import { USER_QUERY_KEY } from './session';

// Apart from session.ts: only the sign-in pages read the auth status, so its calls (and their
// answer schemas) stay out of the pages every visitor loads.

/** Query key of the auth status (§3), read by the sign-in pages. */
export const AUTH_STATUS_QUERY_KEY = ['auth-status'] as const;

/** §3 Auth status: whether this browser is signed in and whether a plugin hand-off waits. */
export function useAuthStatus() {
  // Changes with every sign-in step, so unlike §9's default it is read afresh by each page that shows it.
  return useQuery({ queryKey: AUTH_STATUS_QUERY_KEY, queryFn: fetchAuthStatus, staleTime: 0 });
}

/** After a sign-in step ends (completed, canceled), both the user and the auth status are stale. */
export function useRefreshAuthStatus() {
  const queryClient = useQueryClient();
  return useCallback(
    () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: AUTH_STATUS_QUERY_KEY }),
        queryClient.invalidateQueries({ queryKey: USER_QUERY_KEY }),
      ]),
    [queryClient],
  );
}
