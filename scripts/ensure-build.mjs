// Builds dist/ (scripts/build.mjs) when it is missing or older than its sources, so `npm start` on
// a fresh clone serves the current screens and runs the current server without a separate step.
import fs from 'node:fs';
import path from 'node:path';
import { buildAll } from './build.mjs';

const root = path.resolve(import.meta.dirname, '..');
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
  'package-lock.json',
  'scripts/build.mjs',
];

function newestMtime(p) {
  if (!fs.existsSync(p)) return 0;
  const stat = fs.statSync(p);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return fs.readdirSync(p).reduce((max, name) => Math.max(max, newestMtime(path.join(p, name))), stat.mtimeMs);
}

const builtAt = Math.min(...outputs.map((file) => (fs.existsSync(file) ? fs.statSync(file).mtimeMs : 0)));
const sourcesAt = Math.max(...sources.map((s) => newestMtime(path.join(root, s))));
if (builtAt < sourcesAt) {
  console.error(builtAt ? 'Sources changed: rebuilding…' : 'Building the browser app and the server…');
  await buildAll({ quiet: true });
}
