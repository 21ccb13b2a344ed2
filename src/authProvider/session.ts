import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { fetchCurrentUser } from '../api/auth';
import { fetchAuthStatus } from '../api/epic';

/** Query key of the current user (§7: "a user query (key user)"). */
export const USER_QUERY_KEY = ['user'] as const;

/**
 * The current user: `data` is the user, null when signed out (the server said 401), undefined
 * while loading. Shared by the portal's guards and screens (and react-admin's authProvider).
 */
export function useCurrentUser() {
  return useQuery({ queryKey: USER_QUERY_KEY, queryFn: fetchCurrentUser });
}

/** §1: after login, logout or registration the current-user data is refetched. */
export function useRefreshCurrentUser() {
  const queryClient = useQueryClient();
  return useCallback(() => queryClient.invalidateQueries({ queryKey: USER_QUERY_KEY }), [queryClient]);
}

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
