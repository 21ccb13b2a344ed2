/**
 * Routes by folder (server/routes/index.ts): every route module lives in the folder of the URL
 * prefix it is registered with, and every file of the route tree is registered.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROUTE_FOLDERS } from '../../server/routes';

const ROOT = path.join(import.meta.dirname, '../../server/routes');
/** The tree's own wiring, not route modules. */
const WIRING = ['index.ts', 'access.ts'];

/** Each route module file, by the prefix its folder stands for ('' for the root). */
function moduleFiles(): { prefix: string; file: string; text: string }[] {
  return fs
    .readdirSync(ROOT, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.ts') && !WIRING.includes(name))
    .map((name) => {
      const folder = path.dirname(name).split(path.sep).join('/');
      return { prefix: folder === '.' ? '' : `/${folder}`, file: name, text: fs.readFileSync(path.join(ROOT, name), 'utf8') };
    });
}

describe('the route tree', () => {
  it('registers each module with the prefix of the folder that declares it', () => {
    const files = moduleFiles();
    for (const [prefix, modules] of Object.entries(ROUTE_FOLDERS)) {
      for (const module of modules) {
        const declaring = files.filter((f) => f.text.includes(`export async function ${module.name}(`));
        expect(
          declaring.map((f) => f.prefix),
          `${module.name} registered under '${prefix}'`,
        ).toEqual([prefix]);
      }
    }
  });

  it('registers every file of the tree, and no module writes its own prefix', () => {
    const registered = new Set(Object.values(ROUTE_FOLDERS).flatMap((modules) => modules.map((m) => m.name)));
    for (const { prefix, file, text } of moduleFiles()) {
      const declared = [...text.matchAll(/export async function (\w+)\(/g)].map((m) => m[1] ?? '');
      expect(declared.length, `${file} declares a route module`).toBeGreaterThan(0);
      for (const name of declared) expect(registered.has(name), `${file}: ${name} is in ROUTE_FOLDERS`).toBe(true);
      // Paths are relative to the folder: '/users/:id' in api/admin/, never '/api/admin/users/:id'.
      if (prefix !== '') expect(text.includes(`'${prefix}/`), `${file} spells its prefix`).toBe(false);
    }
  });
});
