import { createContext, useContext, useMemo } from 'react';
import { matchesScreen, type ScreenGuess } from '../../contract/screenGuess';

/** The screen the server laid the page out for (boot data's `screen`), or null where it did not guess. */
export const ScreenGuessContext = createContext<ScreenGuess | null>(null);

/**
 * MUI `useMediaQuery` default props for a theme: on the server, and in the browser while the app
 * attaches to the server's markup, media queries answer for the guessed screen, so both render the
 * same layout; MUI then asks the screen itself. Undefined where the server did not guess.
 */
export function useScreenGuessMediaQueries(): { ssrMatchMedia: (query: string) => { matches: boolean } } | undefined {
  const screen = useContext(ScreenGuessContext);
  return useMemo(
    () => (screen === null ? undefined : { ssrMatchMedia: (query: string) => ({ matches: matchesScreen(query, screen) }) }),
    [screen],
  );
}
