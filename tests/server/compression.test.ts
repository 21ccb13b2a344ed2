/**
 * Compressed delivery (issue 11): built files go out as the brotli or gzip written at build time,
 * API JSON past 1 KiB is compressed per response, and the /ingest proxy relays bytes unchanged.
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import Fastify, { type LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SageApp } from '../../server/app';
import { compressBody, compression, sendCompressed } from '../../server/plugins/compression';
import { precompressDirectory, type PrecompressedFile } from '../../scripts/vitePrecompress';
import { signedInAdmin, insertUsers, listUrl, uniqueTag, userRow } from './adminFlow';
import { buildExtraApp, databases, useTestServer } from './harness';

const CHROMIUM = 'gzip, deflate, br, zstd';
const IMMUTABLE = 'public, max-age=31536000, immutable';

/** Text that compresses like real code: repetitive in shape, varied in detail. */
function fakeScript(lines: number): string {
  return Array.from(
    { length: lines },
    (_, i) => `export function screen${i}(props){return h("div",{className:"row-${(i * 7919) % 1000}"},props.label${i % 13});}`,
  ).join('\n');
}

const FILES: Record<string, string> = {
  'index.html': `<!doctype html><html lang="en"><head><meta charset="UTF-8"><title>Sage</title>${Array.from({ length: 30 }, (_, i) => `<link rel="modulepreload" href="/assets/chunk-${i}-abc123.js">`).join('')}</head><body><div id="root"></div></body></html>`,
  'assets/app-abc123.js': fakeScript(400),
  'assets/app-abc123.css': Array.from(
    { length: 200 },
    (_, i) => `.c${i}{margin:${i % 8}px;color:#${(i * 4099).toString(16).padStart(6, '0').slice(0, 6)}}`,
  ).join('\n'),
  'assets/logo-def456.svg': `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">${Array.from({ length: 40 }, (_, i) => `<circle cx="${i * 2}" cy="${(i * 37) % 100}" r="${i % 9}" fill="#${i}0${i % 10}"/>`).join('')}</svg>`,
  // Under 1 KiB: neither precompressed nor compressed per request.
  'favicon.svg': '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><circle cx="8" cy="8" r="7"/></svg>',
};

function decode(response: LightMyRequestResponse): Buffer {
  const raw = response.rawPayload;
  switch (response.headers['content-encoding']) {
    case 'br':
      return zlib.brotliDecompressSync(raw);
    case 'gzip':
      return zlib.gunzipSync(raw);
    case undefined:
      return raw;
    default:
      throw new Error(`unexpected content-encoding ${String(response.headers['content-encoding'])}`);
  }
}

function varyTokens(response: LightMyRequestResponse): string[] {
  return String(response.headers.vary ?? '')
    .split(',')
    .map((t) => t.trim().toLowerCase());
}

describe('precompressDirectory', () => {
  let dir: string;
  let result: PrecompressedFile[];

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sage-precompress-'));
    for (const [name, text] of Object.entries(FILES)) {
      fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
      fs.writeFileSync(path.join(dir, name), text);
    }
    fs.writeFileSync(path.join(dir, 'assets', 'app-abc123.js.map'), fakeScript(100));
    fs.writeFileSync(path.join(dir, 'assets', 'photo.png'), Buffer.alloc(4096, 7));
    result = await precompressDirectory(dir);
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('writes .br and .gz beside text files of 1 KiB or more, decoding to the original', () => {
    expect(result.map((f) => f.file)).toEqual(['assets/app-abc123.css', 'assets/app-abc123.js', 'assets/logo-def456.svg', 'index.html']);
    for (const { file, bytes, br, gzip } of result) {
      const original = fs.readFileSync(path.join(dir, file));
      expect(bytes).toBe(original.length);
      const brFile = fs.readFileSync(path.join(dir, `${file}.br`));
      const gzFile = fs.readFileSync(path.join(dir, `${file}.gz`));
      expect(brFile.length).toBe(br);
      expect(gzFile.length).toBe(gzip);
      expect(brFile.length).toBeLessThan(original.length);
      expect(gzFile.length).toBeLessThan(original.length);
      expect(zlib.brotliDecompressSync(brFile).equals(original)).toBe(true);
      expect(zlib.gunzipSync(gzFile).equals(original)).toBe(true);
    }
  });

  it('leaves small files, source maps and binary files alone', () => {
    for (const file of ['favicon.svg', 'assets/app-abc123.js.map', 'assets/photo.png']) {
      expect(fs.existsSync(path.join(dir, `${file}.br`))).toBe(false);
      expect(fs.existsSync(path.join(dir, `${file}.gz`))).toBe(false);
    }
  });
});

describe.each(databases)('compressed delivery on $label', (database) => {
  const server = useTestServer(database);
  let staticDir: string;
  let app: SageApp | undefined;

  beforeAll(async () => {
    staticDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sage-static-'));
    for (const [name, text] of Object.entries(FILES)) {
      fs.mkdirSync(path.dirname(path.join(staticDir, name)), { recursive: true });
      fs.writeFileSync(path.join(staticDir, name), text);
    }
    // The routine the Vite build runs (scripts/vitePrecompress.ts).
    await precompressDirectory(staticDir);
  });
  afterAll(async () => {
    await app?.close();
    fs.rmSync(staticDir, { recursive: true, force: true });
  });

  /** One app over the static directory for the whole suite: the files never change. */
  async function staticApp(): Promise<SageApp> {
    app ??= await buildExtraApp(server().db, {}, { staticDir });
    return app;
  }
  const onDisk = (name: string) => fs.readFileSync(path.join(staticDir, name));

  describe('built files', () => {
    it.each([
      ['assets/app-abc123.js', /^(?:application|text)\/javascript/],
      ['assets/app-abc123.css', /^text\/css/],
      ['assets/logo-def456.svg', /^image\/svg\+xml/],
      ['index.html', /^text\/html/],
    ])('serves %s as the brotli file written at build time to a browser that accepts br', async (name, type) => {
      const a = await staticApp();
      const response = await a.inject({ method: 'GET', url: `/${name}`, headers: { 'accept-encoding': CHROMIUM } });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-encoding']).toBe('br');
      expect(response.headers['content-type']).toMatch(type);
      expect(varyTokens(response)).toContain('accept-encoding');
      // The very bytes of the .br file: compressed once at build time, not per request.
      expect(response.rawPayload.equals(onDisk(`${name}.br`))).toBe(true);
      expect(Number(response.headers['content-length'])).toBe(onDisk(`${name}.br`).length);
      expect(decode(response).equals(onDisk(name))).toBe(true);
    });

    it('serves the gzip file to a browser that accepts gzip only, and the file itself to one that accepts neither', async () => {
      const a = await staticApp();
      const name = 'assets/app-abc123.js';
      const gzip = await a.inject({ method: 'GET', url: `/${name}`, headers: { 'accept-encoding': 'gzip, deflate' } });
      expect(gzip.headers['content-encoding']).toBe('gzip');
      expect(gzip.rawPayload.equals(onDisk(`${name}.gz`))).toBe(true);
      expect(decode(gzip).equals(onDisk(name))).toBe(true);
      expect(varyTokens(gzip)).toContain('accept-encoding');

      for (const headers of [
        {},
        { 'accept-encoding': 'identity' },
        { 'accept-encoding': 'deflate' },
        { 'accept-encoding': 'br;q=0, gzip;q=0' },
      ]) {
        const plain = await a.inject({ method: 'GET', url: `/${name}`, headers });
        expect(plain.statusCode).toBe(200);
        expect(plain.headers['content-encoding']).toBeUndefined();
        expect(plain.rawPayload.equals(onDisk(name))).toBe(true);
        // A shared cache must not hand this copy to a browser that accepts brotli.
        expect(varyTokens(plain)).toContain('accept-encoding');
      }
    });

    it('keeps the immutable caching of fingerprinted assets and revalidates the rest', async () => {
      const a = await staticApp();
      for (const name of ['assets/app-abc123.js', 'assets/logo-def456.svg']) {
        for (const encoding of [CHROMIUM, 'gzip', 'identity']) {
          const response = await a.inject({ method: 'GET', url: `/${name}`, headers: { 'accept-encoding': encoding } });
          expect(response.headers['cache-control']).toBe(IMMUTABLE);
        }
      }
      for (const name of ['index.html', 'favicon.svg']) {
        const response = await a.inject({ method: 'GET', url: `/${name}`, headers: { 'accept-encoding': CHROMIUM } });
        expect(response.headers['cache-control']).toBe('no-cache');
      }
    });

    it('answers HEAD with the headers of the GET and no body', async () => {
      const a = await staticApp();
      const name = 'assets/app-abc123.js';
      const br = await a.inject({ method: 'HEAD', url: `/${name}`, headers: { 'accept-encoding': CHROMIUM } });
      expect(br.statusCode).toBe(200);
      expect(br.headers['content-encoding']).toBe('br');
      expect(Number(br.headers['content-length'])).toBe(onDisk(`${name}.br`).length);
      expect(br.headers['cache-control']).toBe(IMMUTABLE);
      expect(br.rawPayload.length).toBe(0);
      const plain = await a.inject({ method: 'HEAD', url: `/${name}` });
      expect(plain.statusCode).toBe(200);
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(Number(plain.headers['content-length'])).toBe(onDisk(name).length);
      expect(plain.rawPayload.length).toBe(0);
    });

    it('sends a small file as it is, without compressing it per request', async () => {
      const a = await staticApp();
      const response = await a.inject({ method: 'GET', url: '/favicon.svg', headers: { 'accept-encoding': CHROMIUM } });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-encoding']).toBeUndefined();
      expect(response.rawPayload.equals(onDisk('favicon.svg'))).toBe(true);
    });

    it('gives the .br and .gz files no route of their own', async () => {
      const a = await staticApp();
      expect(a.hasRoute({ method: 'GET', url: '/assets/app-abc123.js' })).toBe(true);
      for (const url of ['/assets/app-abc123.js.br', '/assets/app-abc123.js.gz', '/index.html.br']) {
        expect(a.hasRoute({ method: 'GET', url })).toBe(false);
        const response = await a.inject({ method: 'GET', url, headers: { 'accept-encoding': CHROMIUM } });
        // Whatever the not-found handler answers (today the app's index.html), the browser never
        // ends up with the compressed bytes as if they were the file's content.
        expect(decode(response).equals(onDisk(url.slice(1)))).toBe(false);
      }
    });
  });

  describe('API JSON', () => {
    /** An admin's first page of 20 users: about 5 KB of JSON, a list the console really loads. */
    async function userList() {
      const admin = await signedInAdmin(server());
      const tag = uniqueTag('zip');
      await insertUsers(
        server().db,
        Array.from({ length: 20 }, (_, i) => userRow({ username: `${tag}-${i}`, email: `${tag}-${i}@example.com` })),
      );
      const url = listUrl('users', { filter: { q: tag }, range: [0, 24] });
      return { get: (encoding?: string) => admin.client.get(url, { headers: encoding ? { 'accept-encoding': encoding } : {} }) };
    }

    it('compresses JSON over 1 KiB with brotli, or gzip, and sends it plain to a browser that accepts neither', async () => {
      const list = await userList();
      const plain = await list.get();
      expect(plain.statusCode).toBe(200);
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.rawPayload.length).toBeGreaterThan(1024);
      expect(plain.json<unknown[]>()).toHaveLength(20);

      for (const [accept, encoding] of [
        [CHROMIUM, 'br'],
        ['gzip, deflate', 'gzip'],
      ] as const) {
        const response = await list.get(accept);
        expect(response.statusCode).toBe(200);
        expect(response.headers['content-encoding']).toBe(encoding);
        expect(response.headers['content-type']).toMatch(/^application\/json/);
        expect(varyTokens(response)).toContain('accept-encoding');
        expect(response.rawPayload.length).toBeLessThan(plain.rawPayload.length / 2);
        expect(decode(response).equals(plain.rawPayload)).toBe(true);
        // The route's own headers survive.
        expect(response.headers['content-range']).toBe('users 0-19/20');
        expect(response.headers['cache-control']).toBe('no-store');
      }
    });

    it('leaves JSON under 1 KiB uncompressed', async () => {
      const response = await server()
        .client()
        .get('/healthz', { headers: { 'accept-encoding': CHROMIUM } });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-encoding']).toBeUndefined();
      expect(response.json()).toEqual({ status: 'ok' });
    });
  });

  describe('the /ingest proxy', () => {
    /** Stands in for PostHog, answering 4 KB of JSON: past the threshold, were it compressed. */
    const answer = Buffer.from(
      JSON.stringify({ featureFlags: Object.fromEntries(Array.from({ length: 120 }, (_, i) => [`flag-number-${i}`, i % 3 === 0])) }),
    );
    let upstream: http.Server;
    let upstreamUrl: string;
    let proxy: SageApp | undefined;

    beforeAll(async () => {
      upstream = http.createServer((req, res) => {
        req.resume();
        req.on('end', () => {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(answer);
        });
      });
      await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
      upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
    });
    afterAll(async () => {
      await proxy?.close();
      await new Promise<void>((resolve) => upstream.close(() => resolve()));
    });

    it('relays the provider answer byte for byte, whatever the browser accepts', async () => {
      proxy ??= await buildExtraApp(server().db, { POSTHOG_KEY: 'phc_k', POSTHOG_HOST: upstreamUrl });
      expect(answer.length).toBeGreaterThan(1024);
      for (const method of ['GET', 'POST'] as const) {
        const response = await proxy.inject({
          method,
          url: '/ingest/flags/?v=2',
          headers: { 'accept-encoding': CHROMIUM, 'content-type': 'text/plain' },
          ...(method === 'POST' ? { payload: '{"distinct_id":"x"}' } : {}),
        });
        expect(response.statusCode).toBe(200);
        expect(response.headers['content-encoding']).toBeUndefined();
        expect(response.rawPayload.equals(answer)).toBe(true);
      }
    });
  });
});

describe('sendCompressed', () => {
  const page = `<!doctype html><html><body>${'<p>Download Sage for Unreal Engine</p>'.repeat(100)}</body></html>`;
  const body = compressBody(page);

  async function pageApp() {
    const app = Fastify();
    await app.register(compression);
    app.get('/page', (request, reply) => {
      reply.header('vary', 'Cookie').type('text/html; charset=utf-8');
      return sendCompressed(request, reply, body);
    });
    await app.ready();
    return app;
  }

  it.each<[string | undefined, 'br' | 'gzip' | undefined]>([
    [CHROMIUM, 'br'],
    ['gzip', 'gzip'],
    [undefined, undefined],
  ])('answers accept-encoding %j with %s, keeping the caller’s content-type and vary', async (accept, encoding) => {
    const app = await pageApp();
    try {
      const response = await app.inject({ method: 'GET', url: '/page', headers: accept ? { 'accept-encoding': accept } : {} });
      expect(response.headers['content-encoding']).toBe(encoding);
      expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(response.headers.vary).toBe('Cookie, accept-encoding');
      expect(Number(response.headers['content-length'])).toBe(response.rawPayload.length);
      // Sent as compressed once, not compressed again by the per-response plugin.
      expect(response.rawPayload.equals(body[encoding ?? 'identity'])).toBe(true);
      expect(decode(response).toString()).toBe(page);
    } finally {
      await app.close();
    }
  });
});
