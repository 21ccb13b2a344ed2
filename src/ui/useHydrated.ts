import { useSyncExternalStore } from 'react';

const subscribe = () => () => {};

/**
 * False on the server and while the browser hydrates a pre-rendered page, true once the app
 * runs it. A pre-rendered form is disabled until then: typed text or a click before the app
 * can handle it would be lost, or would submit the form natively.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
}
