/**
 * Compressed delivery (issue 11): brotli when the browser accepts it, else gzip.
 *
 * - Bodies the server knows ahead of time (the built assets, rendered pages) are compressed once
 *   at the highest settings and sent as they are: `compressBody` + `sendCompressed`, and the
 *   precompressed files of server/plugins/staticAssets.ts.
 * - Everything else (API JSON, CSV exports) is compressed per response by @fastify/compress at a
 *   moderate brotli quality, and only past 1 KiB, where it pays for its CPU.
 */
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import fastifyCompress from '@fastify/compress';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import fp from 'fastify-plugin';

export type ContentEncoding = 'br' | 'gzip' | 'identity';

/** Smallest dynamic body worth compressing: below it, headers and CPU cost more than it saves. */
export const COMPRESS_THRESHOLD_BYTES = 1024;
/** Largest in-memory body compressed in one call rather than streamed (about 2 ms of brotli 2). */
export const SYNC_COMPRESS_MAX_BYTES = 512 * 1024;
/**
 * Brotli quality per request. On the 1,000 newest messages (277 kB of JSON), quality 2 takes 1.1 ms
 * for 32.6 kB, quality 4 2.2 ms for 31.6 kB, gzip 6 2.2 ms for 35.6 kB (issue 12): half the CPU
 * for 3 % more bytes, still smaller than gzip. gzip (clients that do not take brotli) likewise runs at
 * level 3: 1.1 ms for 36.9 kB against level 6's 2.3 ms for 35.5 kB.
 */
export const DYNAMIC_BROTLI_QUALITY = 2;
const DYNAMIC_BROTLI_PARAMS = {
  [zlib.constants.BROTLI_PARAM_QUALITY]: DYNAMIC_BROTLI_QUALITY,
  [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
};
const DYNAMIC_GZIP_LEVEL = 3;

/** Below the lowest q a browser can write (0.001): identity when nothing else was named. */
const IMPLICIT_IDENTITY_Q = 0.0001;

/** In order of preference when the browser rates several alike. */
const PREFERENCE: ContentEncoding[] = ['br', 'gzip', 'identity'];

/** The q-value of one Accept-Encoding member; a malformed one counts as "not acceptable". */
function qValue(params: string[]): number {
  for (const param of params) {
    const [name, value] = param.split('=').map((s) => s.trim());
    if (name?.toLowerCase() !== 'q') continue;
    if (!value || !/^(?:0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/.test(value)) return 0;
    return Number(value);
  }
  return 1;
}

/**
 * The encoding to answer with for this Accept-Encoding header (RFC 9110 §12.5.3): the highest
 * q-value among br, gzip (alias x-gzip) and identity, `*` standing for any coding not named, and
 * br before gzip before identity at equal q. No header means "no preference", and identity is
 * what every client understands. When even identity is refused we still send identity: a 406 for
 * a page or a script helps nobody.
 */
export function negotiateEncoding(acceptEncoding: string | undefined): ContentEncoding {
  if (acceptEncoding === undefined) return 'identity';
  const named = new Map<string, number>();
  let wildcard: number | undefined;
  for (const member of acceptEncoding.split(',')) {
    const [token, ...params] = member.split(';');
    let coding = token?.trim().toLowerCase();
    if (!coding) continue;
    if (coding === 'x-gzip') coding = 'gzip';
    const q = qValue(params);
    if (coding === '*') wildcard = q;
    // Named twice: the more generous one wins (a browser never does this; be lenient).
    else named.set(coding, Math.max(q, named.get(coding) ?? 0));
  }
  const quality = (coding: ContentEncoding): number => {
    const explicit = named.get(coding);
    if (explicit !== undefined) return explicit;
    // identity is acceptable unless refused by name or by `*;q=0` (RFC 9110 §12.5.3), but
    // unnamed it ranks below any coding the browser did name.
    if (coding === 'identity') return wildcard === 0 ? 0 : IMPLICIT_IDENTITY_Q;
    return wildcard ?? 0;
  };
  let best: ContentEncoding = 'identity';
  let bestQ = 0;
  for (const coding of PREFERENCE) {
    const q = quality(coding);
    if (q > bestQ) {
      best = coding;
      bestQ = q;
    }
  }
  return best;
}

export interface CompressedBody {
  identity: Buffer;
  br: Buffer;
  gzip: Buffer;
}

/**
 * One body in every encoding, at the highest settings: for bodies compressed once and sent many
 * times (rendered pages kept in memory). Synchronous, so call it at start-up or on a cache miss.
 */
export function compressBody(body: string | Buffer): CompressedBody {
  const identity = typeof body === 'string' ? Buffer.from(body) : body;
  return { identity, br: zlib.brotliCompressSync(identity, keptBrotli(identity)), gzip: zlib.gzipSync(identity, KEPT_GZIP) };
}

const keptBrotli = (identity: Buffer, quality: number = zlib.constants.BROTLI_MAX_QUALITY): zlib.BrotliOptions => ({
  params: {
    [zlib.constants.BROTLI_PARAM_QUALITY]: quality,
    [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
    [zlib.constants.BROTLI_PARAM_SIZE_HINT]: identity.length,
  },
});
const KEPT_GZIP: zlib.ZlibOptions = { level: zlib.constants.Z_BEST_COMPRESSION };
const brotliAsync = promisify(zlib.brotliCompress);
const gzipAsync = promisify(zlib.gzip);

/**
 * Brotli quality for large bodies kept once they are first asked for: on Swagger UI's 1.5 MB
 * bundle, quality 9 takes 0.5 s for 365 kB where 11 takes 6.5 s for 334 kB.
 */
export const KEPT_LARGE_BROTLI_QUALITY = 9;

/** `compressBody` on libuv's threadpool, for large bodies first needed at run time. */
export async function compressBodyAsync(identity: Buffer, brotliQuality = KEPT_LARGE_BROTLI_QUALITY): Promise<CompressedBody> {
  const [br, gzip] = await Promise.all([brotliAsync(identity, keptBrotli(identity, brotliQuality)), gzipAsync(identity, KEPT_GZIP)]);
  return { identity, br, gzip };
}

/** Adds accept-encoding to the Vary header without dropping what is already there. */
export function varyOnAcceptEncoding(reply: FastifyReply): void {
  const current = reply.getHeader('vary');
  const tokens = (Array.isArray(current) ? current.join(',') : String(current ?? ''))
    .split(',')
    .map((t) => t.trim())
    .filter(Boolean);
  if (tokens.some((t) => t === '*' || t.toLowerCase() === 'accept-encoding')) return;
  reply.header('vary', [...tokens, 'accept-encoding'].join(', '));
}

/** Sends `payload`, already in `encoding`; the content-encoding set here keeps @fastify/compress from compressing it again. */
function sendEncoded(reply: FastifyReply, encoding: ContentEncoding, payload: Buffer): FastifyReply {
  varyOnAcceptEncoding(reply);
  if (encoding === 'identity') reply.removeHeader('content-encoding');
  else reply.header('content-encoding', encoding);
  reply.header('content-length', payload.length);
  return reply.send(payload);
}

/**
 * Sends `body` in the encoding the browser prefers (identity when the encoded form is no smaller).
 * The caller sets content-type and caching.
 */
export function sendCompressed(request: FastifyRequest, reply: FastifyReply, body: CompressedBody): FastifyReply {
  const wanted = negotiateEncoding(request.headers['accept-encoding']);
  const encoding = wanted !== 'identity' && body[wanted].length < body.identity.length ? wanted : 'identity';
  return sendEncoded(reply, encoding, body[encoding]);
}

/**
 * Sends a body made for this one response (a page rendered for its user), compressed in the
 * browser's preferred encoding only, at the per-response settings @fastify/compress uses: routes
 * answered by the not-found handler (every page) are not compressed by the plugin.
 */
export function sendCompressedOnce(request: FastifyRequest, reply: FastifyReply, body: string): FastifyReply {
  const identity = Buffer.from(body);
  const wanted = identity.length < COMPRESS_THRESHOLD_BYTES ? 'identity' : negotiateEncoding(request.headers['accept-encoding']);
  if (wanted === 'identity') return sendEncoded(reply, 'identity', identity);
  const encoded =
    wanted === 'br'
      ? zlib.brotliCompressSync(identity, {
          params: { ...DYNAMIC_BROTLI_PARAMS, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: identity.length },
        })
      : zlib.gzipSync(identity, { level: DYNAMIC_GZIP_LEVEL });
  return encoded.length < identity.length ? sendEncoded(reply, wanted, encoded) : sendEncoded(reply, 'identity', identity);
}

/**
 * Types worth compressing per response: text (HTML, CSV, plain), JSON and XML in all their
 * dialects, JavaScript and SVG. Never octet-stream or media: those are binary or already
 * compressed.
 */
const COMPRESSIBLE_TYPES =
  /^(?:text\/(?!event-stream)[\w.+-]+|application\/(?:json|javascript|ecmascript|xml|x-ndjson|[\w.+-]+\+(?:json|xml))|image\/svg\+xml)\s*(?:;|$)/i;

/** Routes whose replies must leave as they are. */
function sentAsIs(route: RouteOptions): boolean {
  // The analytics reverse proxy relays the provider's bytes and headers unchanged.
  if (route.url === '/ingest' || route.url.startsWith('/ingest/')) return true;
  // @fastify/static's per-file routes (they carry `config.file`): the build precompressed every
  // file worth it; the rest is small or incompressible and must not be compressed per request.
  const config = route.config as { file?: unknown } | undefined;
  return typeof config?.file === 'string';
}

/**
 * Registers per-response compression. Register it before any route: @fastify/compress attaches
 * itself to each route as the route is added.
 */
export const compression = fp(
  async (app: FastifyInstance) => {
    // Added before @fastify/compress's own onRoute hook, so it runs first and can opt routes out.
    app.addHook('onRoute', (route) => {
      if (route.compress === undefined && sentAsIs(route)) route.compress = false;
    });
    await app.register(fastifyCompress, {
      encodings: ['br', 'gzip'],
      threshold: COMPRESS_THRESHOLD_BYTES,
      customTypes: COMPRESSIBLE_TYPES,
      brotliOptions: { params: DYNAMIC_BROTLI_PARAMS },
      zlibOptions: { level: DYNAMIC_GZIP_LEVEL },
      // A body already in memory is compressed in one call up to this size; past it @fastify/compress
      // streams it through the threadpool in 16 kB chunks, which made the 1,000 newest messages
      // (277 kB) 3–6 ms slower than the 1.1 ms one call takes (issue 12). Only admin answers get
      // this big: holding the event loop ~2 ms for one is cheaper than the stream.
      syncThreshold: SYNC_COMPRESS_MAX_BYTES,
      // Request bodies stay as sent: the API takes small JSON, and a compressed body could
      // expand past BODY_LIMIT_BYTES; the /ingest proxy forwards posthog-js's gzip untouched.
      globalDecompression: false,
    });
  },
  { name: 'sage-compression', fastify: '5.x' },
);
