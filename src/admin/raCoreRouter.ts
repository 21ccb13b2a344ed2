/**
 * The `react-router-dom` that react-admin's ra-core is built against (vite.config.ts points ra-core's
 * import here, in production builds only): react-router itself, without the data router.
 *
 * ra-core creates a hash router of its own when it is not inside a router. Ours always is (App.tsx
 * mounts the console under the portal's BrowserRouter), so that code never runs; but importing it
 * would keep react-router's data router (about 56 kB) in the react-router chunk every portal page
 * loads. Should it ever run, it says why it cannot.
 */
export * from 'react-router';

const NOT_INSIDE_A_ROUTER = 'The admin console must be mounted inside the portal’s router (see App.tsx)';

export function createHashRouter(): never {
  throw new Error(NOT_INSIDE_A_ROUTER);
}

export function RouterProvider(): never {
  throw new Error(NOT_INSIDE_A_ROUTER);
}
