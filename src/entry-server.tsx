/**
 * The server's renderer of pre-rendered pages (built by `vite build --ssr` into dist/ssr/): the
 * same providers, router tree and screens as the browser, with Emotion's styles collected so the
 * page is styled before any JavaScript runs. server/plugins/pages.ts calls it.
 */
import createCache from '@emotion/cache';
import { CacheProvider } from '@emotion/react';
import createEmotionServer from '@emotion/server/create-instance';
import { renderToString } from 'react-dom/server';
import { StaticRouter } from 'react-router-dom';
import type { BootData } from '../contract/boot';
import { pageFor } from '../contract/pages';
import { seededQueryClient } from './api/queryClient';
import { AppProviders, PortalTree } from './App';
import { screenFor } from './portal/screens';
import { ServerTitleContext } from './ui/serverTitle';

export interface RenderedPage {
  /** The markup inside #root. */
  html: string;
  /** `<style>` elements for <head>: Emotion's rules for exactly this markup. */
  styles: string;
  /** The document's title, when the screen names itself more finely than its page (a console tab). */
  title?: string;
}

/** Renders `url` (path and query) as the browser's first render will, from the same boot data. */
export async function renderPage(url: string, boot: BootData): Promise<RenderedPage> {
  const pathname = new URL(url, 'http://localhost').pathname;
  await screenFor(pageFor(pathname).path).preload();
  const queryClient = seededQueryClient(boot);
  // Emotion's default key, so the browser's cache adopts these rules instead of inserting them again.
  const cache = createCache({ key: 'css' });
  const emotion = createEmotionServer(cache);
  let title: string | undefined;
  const recordTitle = (screenTitle: string) => {
    title = screenTitle;
  };
  const html = renderToString(
    <ServerTitleContext.Provider value={recordTitle}>
      <CacheProvider value={cache}>
        <AppProviders config={boot.config} queryClient={queryClient}>
          <StaticRouter location={url}>
            <PortalTree />
          </StaticRouter>
        </AppProviders>
      </CacheProvider>
    </ServerTitleContext.Provider>,
  );
  queryClient.clear();
  const styles = emotion.constructStyleTagsFromChunks(emotion.extractCriticalToChunks(html));
  return { html, styles, ...(title === undefined ? {} : { title }) };
}
