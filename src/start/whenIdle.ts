/** How long a busy browser may put the work off: past this it runs anyway. */
const AT_MOST_MS = 3000;

/**
 * Runs `work` once the page has loaded and the browser has a moment with nothing to do (decision
 * 035): after the page's own files and its first paint, never in their way; never tied to what
 * the user does. Returns the call that cancels it.
 */
export function whenIdle(work: () => void): () => void {
  let cancelled = false;
  let cancelIdle = () => {};
  const schedule = () => {
    if (cancelled) return;
    if (typeof window.requestIdleCallback === 'function') {
      const handle = window.requestIdleCallback(work, { timeout: AT_MOST_MS });
      cancelIdle = () => window.cancelIdleCallback(handle);
    } else {
      const handle = setTimeout(work, 0);
      cancelIdle = () => clearTimeout(handle);
    }
  };
  if (document.readyState === 'complete') schedule();
  else window.addEventListener('load', schedule, { once: true });
  return () => {
    cancelled = true;
    window.removeEventListener('load', schedule);
    cancelIdle();
  };
}
