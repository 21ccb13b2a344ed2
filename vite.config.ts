import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { precompress } from './scripts/vitePrecompress.ts';

/**
 * Gives react-admin's ra-core a `react-router-dom` without the data router it only needs outside a
 * router (src/admin/raCoreRouter.ts says why), so the portal's react-router chunk does not grow.
 */
function raCoreWithoutDataRouter(): Plugin {
  const replacement = fileURLToPath(new URL('./src/admin/raCoreRouter.ts', import.meta.url));
  return {
    name: 'ra-core-without-data-router',
    apply: 'build',
    enforce: 'pre',
    resolveId(source, importer) {
      if (source === 'react-router-dom' && importer && /[\\/]node_modules[\\/]ra-core[\\/]/.test(importer)) return replacement;
      return null;
    },
  };
}

// The dev server proxies the API to the Fastify server started by `npm run dev:server`.
export default defineConfig(({ isSsrBuild }) => ({
  plugins: [react(), raCoreWithoutDataRouter(), precompress()],
  build: {
    // dist/client: the browser app; `vite build --ssr` writes the page renderer to dist/ssr (package.json).
    outDir: 'dist/client',
    // A dynamic import fetches its chunk's imports only once that chunk is parsed, and theirs after
    // that: react-admin and a console page are six to eight such round trips deep. The console's
    // screen has them fetched side by side (a <link rel="modulepreload"> for each dependency of its
    // dynamic imports: react-admin, its layout, the pages). Elsewhere none: on the page's own start
    // inserting them cost a phone 250 ms of main thread at 4× CPU on the console's Home (about
    // 1.5 ms a link), more than the round trips they save.
    modulePreload: {
      polyfill: false,
      resolveDependencies: (_chunk, dependencies, { hostId }) => (hostId.startsWith('assets/ConsoleScreen-') ? dependencies : []),
    },
    rolldownOptions: {
      output: {
        // React changes less often than our screens: its own chunk stays cached across releases.
        // Everything else is split by the import graph, so each screen's chunk carries what only it
        // uses and the admin console's libraries never reach the portal.
        codeSplitting: {
          groups: [{ name: 'react', test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/ }],
        },
      },
    },
  },
  // The page renderer bundles its libraries with their production code paths, as in the browser:
  // Node would run React, MUI and Emotion in development mode, whose Emotion class names differ,
  // and the browser would then insert every style again while hydrating.
  ssr: { noExternal: true },
  define: isSsrBuild ? { 'process.env.NODE_ENV': JSON.stringify('production') } : undefined,
  server: {
    port: 5173,
    proxy: { '/api': 'http://localhost:3000', '/healthz': 'http://localhost:3000' },
  },
}));
