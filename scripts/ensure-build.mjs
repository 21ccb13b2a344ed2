// Builds the browser app when dist/ is missing or older than its sources, so `npm start` on a
// fresh clone serves the current screens without a separate build step.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
// The browser app (dist/client) and the server's renderer of pre-rendered pages (dist/ssr).
const outputs = [path.join(root, 'dist', 'client', 'index.html'), path.join(root, 'dist', 'ssr', 'entry-server.js')];
const sources = ['src', 'contract', 'public', 'index.html', 'vite.config.ts', 'tsconfig.json', 'package-lock.json'];

function newestMtime(p) {
  if (!fs.existsSync(p)) return 0;
  const stat = fs.statSync(p);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return fs.readdirSync(p).reduce((max, name) => Math.max(max, newestMtime(path.join(p, name))), stat.mtimeMs);
}

const builtAt = Math.min(...outputs.map((file) => (fs.existsSync(file) ? fs.statSync(file).mtimeMs : 0)));
const sourcesAt = Math.max(...sources.map((s) => newestMtime(path.join(root, s))));
if (builtAt < sourcesAt) {
  console.log(builtAt ? 'Sources changed: rebuilding the browser app…' : 'Building the browser app…');
  const vite = path.join(root, 'node_modules', 'vite', 'bin', 'vite.js');
  for (const args of [['build'], ['build', '--ssr', 'src/entry-server.tsx', '--outDir', 'dist/ssr']]) {
    // A production build whatever the caller's NODE_ENV: under Vitest it is 'test', and Vite would
    // then compile the server renderer against React's development JSX runtime.
    const env = { ...process.env, NODE_ENV: 'production' };
    execFileSync(process.execPath, [vite, ...args, '--logLevel', 'warn'], { cwd: root, stdio: 'inherit', env });
  }
}
