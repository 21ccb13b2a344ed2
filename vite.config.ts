import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';

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
export default defineConfig({
  plugins: [react(), raCoreWithoutDataRouter()],
  build: {
    outDir: 'dist',
    rolldownOptions: {
      output: {
        // Libraries change less often than our screens: separate chunks stay cached across releases.
        // entriesAware: a library only the lazily loaded admin console uses (react-admin and what it
        // brings) goes to that console's vendor chunks, so the portal never downloads it.
        codeSplitting: {
          groups: [
            { name: 'vendor-mui', test: /node_modules[\\/](@mui|@emotion)[\\/]/, entriesAware: true },
            { name: 'vendor', test: /node_modules[\\/]/, entriesAware: true },
          ],
        },
      },
    },
  },
  server: {
    port: 5173,
    proxy: { '/api': 'http://localhost:3000', '/healthz': 'http://localhost:3000' },
  },
});
