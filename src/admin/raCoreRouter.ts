/**
 * The `react-router-dom` that react-admin's ra-core is built against (vite.config.ts points ra-core's
 * import here, in production builds only): react-router-dom itself, without the data router.
 *
 * ra-core's default router adapter creates a hash router of its own when it is not inside a router.
 * Ours always is (App.tsx mounts the console under the portal's BrowserRouter), so that code never
 * runs; but importing it would keep react-router's data router (16.8 kB gzip, measured for issue 15)
 * in the react-router chunk every portal page loads. Should it ever run, it says why it cannot.
 * Decision 013 says why ra-core's `routerProvider` prop does not avoid this.
 */
export * from 'react-router-dom';

const NOT_INSIDE_A_ROUTER = 'The admin console must be mounted inside the portal’s router (see App.tsx)';

export function createHashRouter(): never {
  throw new Error(NOT_INSIDE_A_ROUTER);
}

export function RouterProvider(): never {
  throw new Error(NOT_INSIDE_A_ROUTER);
}
