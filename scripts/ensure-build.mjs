// Builds dist/ (scripts/build.mjs) when it is missing or older than its sources, so `npm start` on
// a fresh clone serves the current screens and runs the current server without a separate step.
// The build's tools (Vite, esbuild) are dev dependencies: a production install (`npm ci --omit=dev`
// on a built tree) has none, so they are loaded only when a build is due.
// Plain syntax only up to the version check: it must run, and say what to do, on an older Node.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { builtFromCurrentLock } from './buildRecord.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

// package.json's engines (">=24") is the one statement of the runtime; npm only warns about it.
const required = Number(/\d+/.exec(JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')).engines.node)[0]);
if (Number(process.versions.node.split('.')[0]) < required) {
  console.error(
    `Sage Dashboard needs Node ${required} LTS or newer (this is ${process.version}): install it (e.g. \`npm install --prefix ~/.cache/node${required} node@${required}\`, then put ~/.cache/node${required}/node_modules/.bin first in PATH) and run again.`,
  );
  process.exit(1);
}

// The browser app, the renderer of pre-rendered pages, and the compiled server.
const outputs = ['dist/client/index.html', 'dist/ssr/entry-server.js', 'dist/server/main.js', 'dist/server/cli.js'].map((f) =>
  path.join(root, f),
);
const sources = [
  'src',
  'contract',
  'server',
  'public',
  'index.html',
  'vite.config.ts',
  'tsconfig.json',
  'tsconfig.base.json',
  'scripts/build.mjs',
];

function newestMtime(p) {
  if (!fs.existsSync(p)) return 0;
  const stat = fs.statSync(p);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return fs.readdirSync(p).reduce((max, name) => Math.max(max, newestMtime(path.join(p, name))), stat.mtimeMs);
}

/** True when Vite and esbuild are installed (the dev dependencies were not omitted). */
function buildToolsPresent() {
  return ['vite/package.json', 'esbuild/package.json'].every((f) => fs.existsSync(path.join(root, 'node_modules', f)));
}

const builtAt = Math.min(...outputs.map((file) => (fs.existsSync(file) ? fs.statSync(file).mtimeMs : 0)));
const sourcesAt = Math.max(...sources.map((s) => newestMtime(path.join(root, s))));
// package-lock.json counts by its content, not its time (scripts/buildRecord.mjs says why).
if (builtAt < sourcesAt || !builtFromCurrentLock(root)) {
  if (!buildToolsPresent()) {
    console.error(
      `${builtAt ? 'dist/ was built from other sources or dependencies' : 'dist/ is missing'} and the build tools (dev dependencies) are not installed: run \`npm ci && npm run build\` (then \`npm prune --omit=dev\` if you want them gone) and start again.`,
    );
    process.exit(1);
  }
  console.error(builtAt ? 'Sources changed: rebuilding…' : 'Building the browser app and the server…');
  const { buildAll } = await import('./build.mjs');
  await buildAll({ quiet: true });
}
