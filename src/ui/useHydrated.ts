import { useSyncExternalStore } from 'react';

const subscribe = () => () => {};

/**
 * False on the server and while the browser hydrates a page the server rendered, true otherwise
 * (React renders once more right after hydration). A screen that depends on what only the browser
 * knows (the URL hash) renders the server's view first, so hydration matches.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
}
