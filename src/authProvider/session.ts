import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { fetchCurrentUser, USER_QUERY_KEY } from '../api/auth';

export { USER_QUERY_KEY };

/**
 * The current-user query (§7 key `user`), read by the portal's hooks and by react-admin's
 * authProvider through the same query client: §9's defaults keep it until a sign-in, a sign-out or
 * a refused call says it changed, so a page load asks `GET /api/user` once.
 */
export const currentUserQuery = queryOptions({ queryKey: USER_QUERY_KEY, queryFn: fetchCurrentUser });

/**
 * The current user: `data` is the user, null when signed out (the server said 401), undefined
 * while loading. Shared by the portal's guards and screens (and react-admin's authProvider).
 */
export function useCurrentUser() {
  return useQuery(currentUserQuery);
}

/** §1: after login, logout or registration the current-user data is refetched. */
export function useRefreshCurrentUser() {
  const queryClient = useQueryClient();
  return useCallback(() => queryClient.invalidateQueries({ queryKey: USER_QUERY_KEY }), [queryClient]);
}
