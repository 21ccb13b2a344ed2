import { afterEach, describe, expect, it, vi } from 'vitest';
import { prefetchAfterLoad } from '../../src/start/prefetch';

// The console's files, fetched while a phone's Home waits for the admin's first touch (decision 032).
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

  it('fetches at once when the page has already loaded', () => {
    vi.spyOn(document, 'readyState', 'get').mockReturnValue('complete');
    prefetchAfterLoad(['/assets/charts.js']);
    expect(prefetchLinks()).toEqual([['/assets/charts.js', 'anonymous']]);
  });
});
