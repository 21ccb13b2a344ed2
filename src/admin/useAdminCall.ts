import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useMemo } from 'react';
import { createAuthProvider } from '../authProvider/authProvider';

/**
 * Runs a console call (src/api/admin.ts) as react-admin runs its record calls: a failure goes to the
 * authProvider first, and when it means the console is closed to this browser (a 401, or a 403 once
 * the user is no longer an admin) the browser leaves, so the call never settles and the screen shows
 * nothing more. Any other failure reaches the screen's query or mutation as it was. Without
 * react-admin (the Home runs before it, decision 035), through the same authProvider.
 */
export function useAdminCall() {
  const queryClient = useQueryClient();
  const authProvider = useMemo(() => createAuthProvider(queryClient), [queryClient]);
  return useCallback(
    <T>(call: Promise<T>): Promise<T> =>
      call.catch(async (error: unknown) => {
        const refused = await authProvider.checkError(error).then(
          () => false,
          () => true,
        );
        if (!refused) throw error;
        await authProvider.logout();
        return new Promise<never>(() => undefined);
      }),
    [authProvider],
  );
}
