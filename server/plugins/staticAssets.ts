/**
 * Serves the built browser app's files (issue 11): the `.br` / `.gz` written beside them at build
 * time (scripts/vitePrecompress.ts) go to browsers that accept them, with content-encoding and
 * `vary: accept-encoding`; nothing is compressed per request.
 */
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';

/** Vite fingerprints everything under assets/: a changed file gets a new name. */
export const IMMUTABLE_CACHE = 'public, max-age=31536000, immutable';
/** Everything else (favicon, robots.txt...) keeps its name across releases. */
export const REVALIDATE_CACHE = 'no-cache';

/**
 * Registers one GET/HEAD route per file of `dir` (read once, at start-up). The precompressed
 * siblings get no route of their own: they are only ever sent as an encoding of their original,
 * and served under their own name they would go out as a download without content-encoding.
 */
export async function registerStaticAssets(app: FastifyInstance, dir: string): Promise<void> {
  await app.register(fastifyStatic, {
    root: dir,
    // Routes for the files that exist, not a catch-all: unknown paths reach the not-found handler.
    wildcard: false,
    index: false,
    preCompressed: true,
    globIgnore: ['**/*.br', '**/*.gz'],
    setHeaders(reply, filePath) {
      // filePath is the file sent (maybe `x.js.br`): judge it by its place under `dir`.
      const relative = path.relative(dir, filePath).split(path.sep);
      reply.header('cache-control', relative[0] === 'assets' && relative.length > 1 ? IMMUTABLE_CACHE : REVALIDATE_CACHE);
    },
  });
}
