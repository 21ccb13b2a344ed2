import { useCallback } from 'react';
import { useLogoutIfAccessDenied } from 'react-admin';

/**
 * Runs a console call (src/api/admin.ts) as react-admin runs its record calls: a failure goes to the
 * authProvider first, and when it means the console is closed to this browser (a 401, or a 403 once
 * the user is no longer an admin) the browser leaves, so the call never settles and the screen shows
 * nothing more. Any other failure reaches the screen's query or mutation as it was.
 */
export function useAdminCall() {
  const logoutIfAccessDenied = useLogoutIfAccessDenied();
  return useCallback(
    <T>(call: Promise<T>): Promise<T> =>
      call.catch(async (error: unknown) => {
        if (await logoutIfAccessDenied(error)) return new Promise<never>(() => undefined);
        throw error;
      }),
    [logoutIfAccessDenied],
  );
}
