import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';

export default defineConfig({
  plugins: [react()],
  resolve: {
    // Node loads react-admin's `react-router-dom`, which imports react-router's ES module; our own
    // `react-router` imports would get its CommonJS build, a second copy whose router context
    // react-admin cannot see. One copy, as in the browser bundle.
    alias: [{ find: /^react-router$/, replacement: fileURLToPath(import.meta.resolve('react-router')) }],
  },
  test: {
    globals: true,
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          environment: 'node',
          include: ['tests/unit/**/*.test.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'portal',
          environment: 'jsdom',
          include: ['tests/portal/**/*.test.tsx', 'tests/admin/**/*.test.tsx'],
          setupFiles: ['tests/portal/setup.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'server',
          environment: 'node',
          include: ['tests/server/**/*.test.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          environment: 'node',
          include: ['tests/e2e/**/*.test.ts'],
          globalSetup: ['tests/e2e/globalSetup.ts'],
          testTimeout: 60_000,
          hookTimeout: 180_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
