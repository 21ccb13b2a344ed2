import { afterEach, describe, expect, it, vi } from 'vitest';
import { prefetchAfterLoad } from '../../src/start/prefetch';

// The console's files, fetched while its Home waits for the admin to approach it (decisions 032 and 033).
const prefetchLinks = () =>
  [...document.head.querySelectorAll<HTMLLinkElement>('link[rel="prefetch"]')].map((link) => [link.getAttribute('href'), link.crossOrigin]);

describe('prefetchAfterLoad', () => {
  afterEach(() => {
    document.head.querySelectorAll('link[rel="prefetch"]').forEach((link) => link.remove());
    vi.restoreAllMocks();
  });

  it('waits for the page to load, then has the browser fetch each file as a module script is fetched', () => {
    vi.spyOn(document, 'readyState', 'get').mockReturnValue('interactive');
    prefetchAfterLoad(['/assets/startApp.js', '/assets/AdminApp.js']);
    expect(prefetchLinks()).toEqual([]);
    window.dispatchEvent(new Event('load'));
    expect(prefetchLinks()).toEqual([
      ['/assets/startApp.js', 'anonymous'],
      ['/assets/AdminApp.js', 'anonymous'],
    ]);
    // Once: a second load event adds nothing.
    window.dispatchEvent(new Event('load'));
    expect(prefetchLinks()).toHaveLength(2);
  });

  it('asks for a few files at a time, each few in a task of its own', async () => {
    vi.spyOn(document, 'readyState', 'get').mockReturnValue('complete');
    const files = Array.from({ length: 20 }, (_, i) => `/assets/chunk-${i}.js`);
    prefetchAfterLoad(files);
    expect(prefetchLinks()).toHaveLength(8);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(prefetchLinks()).toHaveLength(16);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(prefetchLinks().map(([href]) => href)).toEqual(files);
  });

  it('fetches at once when the page has already loaded', () => {
    vi.spyOn(document, 'readyState', 'get').mockReturnValue('complete');
    prefetchAfterLoad(['/assets/charts.js']);
    expect(prefetchLinks()).toEqual([['/assets/charts.js', 'anonymous']]);
  });
});
