/** Files asked for in one task: each request costs the main thread a little, about 1.5 ms on a slow phone. */
const PER_TASK = 8;

/**
 * Has the browser fetch `files` into its cache, without running them, once the page has loaded:
 * after the page's own files, so they take nothing from its first paint (decision 032). Fetched as
 * module scripts are (CORS, same origin), so the cache answers the app's imports later. Asked for
 * a few at a time, each few in a task of its own: 73 at once kept a phone busy for a tenth of a
 * second.
 */
export function prefetchAfterLoad(files: readonly string[]): void {
  const ask = (from: number) => {
    for (const file of files.slice(from, from + PER_TASK)) {
      const link = document.createElement('link');
      link.rel = 'prefetch';
      link.crossOrigin = 'anonymous';
      link.href = file;
      document.head.append(link);
    }
    if (from + PER_TASK < files.length) setTimeout(() => ask(from + PER_TASK), 0);
  };
  if (document.readyState === 'complete') ask(0);
  else window.addEventListener('load', () => ask(0), { once: true });
}
