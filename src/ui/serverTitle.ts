import { createContext, useContext } from 'react';

/** Records the document's title during a render on the server: given only by src/entry-server.tsx. */
export const ServerTitleContext = createContext<((title: string) => void) | null>(null);

/**
 * The document's title as this screen sets it: in the browser the screen sets `document.title` in
 * an effect, which a render on the server never runs, so there it is recorded while rendering and
 * the server puts it in the page's `<title>` (the console's tabs, issue 28).
 */
export function useServerTitle(title: string): void {
  useContext(ServerTitleContext)?.(title);
}
