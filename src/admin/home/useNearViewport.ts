import { startTransition, useEffect, useState, type RefObject } from 'react';

/** How far below (or above) the screen an element counts as about to be seen. */
const AHEAD = '200px';

/**
 * Whether the element has come near the screen at least once: what is drawn only then costs the
 * first view nothing. True at once where the browser cannot tell (no IntersectionObserver); never
 * on the server, which renders the space kept for it (issue 28).
 */
export function useNearViewport(ref: RefObject<Element | null>): boolean {
  const [near, setNear] = useState(() => typeof window !== 'undefined' && typeof IntersectionObserver === 'undefined');
  useEffect(() => {
    const element = ref.current;
    if (near || !element) return;
    const observer = new IntersectionObserver(
      (entries) => {
        // A transition: what is drawn then renders in slices, and never keeps a tap or a key waiting.
        if (entries.some((entry) => entry.isIntersecting)) startTransition(() => setNear(true));
      },
      { rootMargin: AHEAD },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [near, ref]);
  return near;
}
