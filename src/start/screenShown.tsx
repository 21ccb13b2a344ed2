import { createContext, useContext, useEffect } from 'react';

const ScreenShownContext = createContext<() => void>(() => {});

/** Given by the app's starter: called each time a screen is live (src/start/startApp.tsx). */
export const ScreenShownProvider = ScreenShownContext.Provider;

/**
 * Rendered beside each screen, inside its Suspense boundary: its effect runs once the screen is
 * live, after React has hydrated the boundary (which may come after the rest of the page), so
 * a click held until then reaches a handler.
 */
export function ScreenShown() {
  const onShown = useContext(ScreenShownContext);
  useEffect(() => onShown(), [onShown]);
  return null;
}
