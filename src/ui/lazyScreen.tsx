import { lazy, type ComponentType } from 'react';

/** A screen in a chunk of its own that can also be loaded ahead of rendering. */
export interface LazyScreen<P extends object = object> {
  (props: P): React.JSX.Element;
  /** Loads the screen's chunk; once it resolves, the screen renders at once, without suspending. */
  preload(): Promise<void>;
}

/**
 * React.lazy, plus `preload()`. A page rendered on the server, or hydrated in the browser, must
 * render its content in the first pass: the server and the browser both preload the current
 * screen, so the markup matches and nothing flashes. Screens not preloaded suspend as usual.
 */
export function lazyScreen<P extends object = object>(load: () => Promise<ComponentType<P>>): LazyScreen<P> {
  let Loaded: ComponentType<P> | undefined;
  let loading: Promise<void> | undefined;
  const preload = () =>
    (loading ??= load().then(
      (component) => {
        Loaded = component;
      },
      (err: unknown) => {
        loading = undefined; // A failed download (a new release, a dropped connection) is tried again.
        throw err;
      },
    ));
  const Lazy = lazy(async () => {
    await preload();
    return { default: Loaded as ComponentType<P> };
  });
  function Screen(props: P) {
    return Loaded ? <Loaded {...props} /> : <Lazy {...props} />;
  }
  Screen.preload = preload;
  return Screen;
}
