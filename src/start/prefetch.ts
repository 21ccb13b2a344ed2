/**
 * Has the browser fetch `files` into its cache, without running them, once the page has loaded:
 * after the page's own files, so they take nothing from its first paint (decision 032). Fetched as
 * module scripts are (CORS, same origin), so the cache answers the app's imports later.
 */
export function prefetchAfterLoad(files: readonly string[]): void {
  const add = () => {
    for (const file of files) {
      const link = document.createElement('link');
      link.rel = 'prefetch';
      link.crossOrigin = 'anonymous';
      link.href = file;
      document.head.append(link);
    }
  };
  if (document.readyState === 'complete') add();
  else window.addEventListener('load', add, { once: true });
}
