/**
 * Compresses the browser build once, at build time: a `.br` (brotli 11) and a `.gz` (gzip 9)
 * beside every text file, which the server's static plugin sends as they are (issue 11). Brotli
 * at its highest quality is far too slow per request, but costs nothing when done once here.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { Plugin } from 'vite';

/** Files compressed: text. Source maps are left out: only developer tools fetch them. */
export const PRECOMPRESSED_EXTENSIONS = new Set(['.js', '.mjs', '.css', '.html', '.svg', '.json', '.txt', '.xml', '.webmanifest']);
/** Below this, the headers outweigh what compression saves. */
export const PRECOMPRESS_MIN_BYTES = 1024;

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

export interface PrecompressedFile {
  /** Path relative to the directory, with `/` separators. */
  file: string;
  bytes: number;
  /** Size of the `.br` written, or null when brotli did not make the file smaller. */
  br: number | null;
  gzip: number | null;
}

async function* walk(dir: string): AsyncGenerator<string> {
  for (const entry of await fs.readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* walk(full);
    else if (entry.isFile()) yield full;
  }
}

/** Writes `encoded` only when it saves bytes, and removes a stale sibling otherwise. */
async function writeIfSmaller(target: string, encoded: Buffer, original: number): Promise<number | null> {
  if (encoded.length >= original) {
    await fs.rm(target, { force: true });
    return null;
  }
  await fs.writeFile(target, encoded);
  return encoded.length;
}

async function precompressFile(dir: string, full: string): Promise<PrecompressedFile | null> {
  const body = await fs.readFile(full);
  if (body.length < PRECOMPRESS_MIN_BYTES) return null;
  const [br, gz] = await Promise.all([
    brotli(body, {
      params: {
        [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
        [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
        [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length,
      },
    }),
    gzip(body, { level: zlib.constants.Z_BEST_COMPRESSION }),
  ]);
  return {
    file: path.relative(dir, full).split(path.sep).join('/'),
    bytes: body.length,
    br: await writeIfSmaller(`${full}.br`, br, body.length),
    gzip: await writeIfSmaller(`${full}.gz`, gz, body.length),
  };
}

/**
 * Writes `file.br` and `file.gz` beside every text file of `dir` (recursively) of at least 1 KiB,
 * each only when smaller than the file. Files are compressed concurrently: zlib runs them on
 * libuv's thread pool.
 */
export async function precompressDirectory(dir: string): Promise<PrecompressedFile[]> {
  const jobs: Promise<PrecompressedFile | null>[] = [];
  for await (const full of walk(dir)) {
    if (PRECOMPRESSED_EXTENSIONS.has(path.extname(full).toLowerCase())) jobs.push(precompressFile(dir, full));
  }
  const done = await Promise.all(jobs);
  return done.filter((f): f is PrecompressedFile => f !== null).sort((a, b) => a.file.localeCompare(b.file));
}

/** The Vite plugin: precompresses the client build's output directory once it is written. */
export function precompress(): Plugin {
  return {
    name: 'sage-precompress',
    apply: 'build',
    writeBundle: {
      // After every other plugin has written its files; one output at a time.
      order: 'post',
      sequential: true,
      async handler(options) {
        // The server-side rendering build is never sent to a browser.
        if (this.environment.config.consumer !== 'client' || this.environment.config.build.ssr) return;
        if (!options.dir) return;
        const files = await precompressDirectory(options.dir);
        const saved = files.reduce((sum, f) => sum + f.bytes - (f.br ?? f.bytes), 0);
        this.environment.logger.info(`precompressed ${files.length} files (brotli saves ${Math.round(saved / 1024)} KiB)`);
      },
    },
  };
}
