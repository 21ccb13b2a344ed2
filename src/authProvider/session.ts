import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { fetchCurrentUser, USER_QUERY_KEY } from '../api/auth';

export { USER_QUERY_KEY };

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
