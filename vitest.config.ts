import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import os from 'node:os';
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
    // Vitest's default is one worker fewer than the cores: one file at a time on a two-core CI
    // machine, which then idles while a file waits on a child process or Chromium. Two files at a
    // time there; more cores, a worker each but one. (Projects with other limits run after.)
    maxWorkers: Math.max(2, os.availableParallelism() - 1),
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          environment: 'node',
          include: ['tests/unit/**/*.test.ts'],
          // ESLint over the tree and scrypt at N = 2^17 take seconds on a busy two-core machine:
          // a slow machine makes CI slower, never red (Vitest's default is 5 s).
          testTimeout: 30_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'portal',
          environment: 'jsdom',
          include: ['tests/portal/**/*.test.tsx', 'tests/admin/**/*.test.tsx'],
          setupFiles: ['tests/portal/setup.ts'],
          testTimeout: 30_000,
          // Loading every screen's chunk before a file's tests (the setup file) took over 10 s for
          // the first file, two files starting at once on a cold transform cache.
          hookTimeout: 60_000,
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
          // As many files at a time as the other projects: each file has its own SQLite file and
          // PostgreSQL schema, and a migration reads only its own schema (server/db/ownSchema.ts).
          sequence: { groupOrder: 1 },
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          environment: 'node',
          include: ['tests/e2e/**/*.test.ts'],
          globalSetup: ['tests/e2e/globalSetup.ts'],
          // A story's waits end on their events (a request, a mail, the page settled), each with a
          // generous limit: a busy machine makes a story slower, never red.
          testTimeout: 180_000,
          hookTimeout: 180_000,
          // Each file starts its own product (free port, fresh data directory) and Chromium, so files
          // may overlap: two at a time, however many cores there are, in a phase after the server files
          // (a story's product and Chromium beside two server files would starve a two-core machine).
          maxWorkers: 2,
          sequence: { groupOrder: 2 },
        },
      },
    ],
  },
});
