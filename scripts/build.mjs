// `npm run build`: everything `npm start` runs, into dist/ —
//   dist/client  the browser app (Vite), every text asset also as .br and .gz;
//   dist/ssr     the renderer of the pages the server pre-renders (Vite, SSR build);
//   dist/server  the server and its CLI, compiled to plain JavaScript with source maps (esbuild),
//                so production runs `node` with no TypeScript loader beside it.
// Always a production build, whatever NODE_ENV the caller has: under Vitest it is 'test', and Vite
// would then compile the renderer against React's development JSX runtime.
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { build } from 'esbuild';
import { recordBuild } from './buildRecord.mjs';

const root = path.resolve(import.meta.dirname, '..');

export const SERVER_ENTRIES = ['server/main.ts', 'server/cli.ts'];

/** Compiles the server: one bundle per entry, its libraries left to node_modules, lazily loaded modules (the development identity provider) in chunks of their own. */
export async function buildServer() {
  await build({
    absWorkingDir: root,
    entryPoints: SERVER_ENTRIES,
    outdir: 'dist/server',
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node24',
    packages: 'external',
    sourcemap: true,
    logLevel: 'warning',
  });
}

export async function buildAll({ quiet = false } = {}) {
  const vite = path.join(root, 'node_modules', 'vite', 'bin', 'vite.js');
  const env = { ...process.env, NODE_ENV: 'production' };
  for (const args of [['build'], ['build', '--ssr', 'src/entry-server.tsx', '--outDir', 'dist/ssr']]) {
    // Vite's output goes to stderr: `npm run cli -- export-users > users.csv` keeps a clean stdout.
    execFileSync(process.execPath, [vite, ...args, ...(quiet ? ['--logLevel', 'warn'] : [])], { cwd: root, stdio: ['ignore', 2, 2], env });
  }
  await buildServer();
  recordBuild(root);
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.join(root, 'scripts', 'build.mjs')) {
  await buildAll();
}
