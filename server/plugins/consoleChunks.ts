import fs from 'node:fs';
import path from 'node:path';

/** The part of Vite's build manifest read here: each source module's file and the chunks it imports. */
export type BuildManifest = Record<string, { file: string; imports?: string[]; isEntry?: boolean }>;

/**
 * What the console's start runs in the browser: the app (src/start/startApp.tsx), the console
 * (src/admin/AdminApp.tsx, which imports the modules src/portal/screenChunks.ts runs before it)
 * and the charts the Home draws.
 */
export const CONSOLE_START_MODULES = ['src/start/startApp.tsx', 'src/admin/AdminApp.tsx', 'src/admin/home/charts.ts'] as const;

/** The files that `modules` need, each with the chunks it imports, leaving out what the page's own script loads anyway. */
export function startFiles(manifest: BuildManifest, modules: readonly string[]): string[] {
  const closure = (keys: readonly string[]) => {
    const seen = new Set<string>();
    const visit = (key: string) => {
      if (seen.has(key)) return;
      const chunk = manifest[key];
      if (!chunk) throw new Error(`the build manifest has no ${key}`);
      seen.add(key);
      chunk.imports?.forEach(visit);
    };
    keys.forEach(visit);
    return seen;
  };
  const loaded = closure(Object.keys(manifest).filter((key) => manifest[key]?.isEntry));
  return [...closure(modules)].filter((key) => !loaded.has(key)).map((key) => manifest[key]!.file);
}

/**
 * The console's files in the built app `clientDir`, as paths from its root. None for a build
 * without a manifest (the dev server's pages are its shell); a manifest that lacks one of the
 * modules is a build this server does not match, and stops it starting.
 */
export function consoleStartFiles(clientDir: string): string[] {
  const file = path.join(clientDir, '.vite', 'manifest.json');
  if (!fs.existsSync(file)) return [];
  return startFiles(JSON.parse(fs.readFileSync(file, 'utf8')) as BuildManifest, CONSOLE_START_MODULES).map((name) => `/${name}`);
}
